"""The physical edges: cameras, buttons and lights."""
