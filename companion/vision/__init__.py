"""OpenCV: an image in, an observation out. No game rules here."""
