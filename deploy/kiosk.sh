#!/usr/bin/env bash
# Started by the desktop session (labwc autostart, or wayfire): wait for the server, then show /kiosk full screen.
set -u
url="${1:-http://localhost:8000/kiosk}"
for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "${url%/kiosk}/api/state"; then
        break
    fi
    sleep 1
done
browser=$(command -v chromium-browser || command -v chromium)
exec "$browser" --kiosk --noerrdialogs --disable-infobars --no-first-run --password-store=basic \
    --disable-session-crashed-bubble --check-for-update-interval=31536000 "$url"
