#!/usr/bin/env bash
# Turn a fresh Raspberry Pi OS Bookworm (64-bit, Pi 4/5) into the Crypt Companion kiosk.
# Idempotent: run it again to update. --dry-run prints every step and changes nothing.
#
#   sudo deploy/install.sh [--dry-run] [--user pi] [--root /]
set -euo pipefail

DRY_RUN=0
DESKTOP_USER="${SUDO_USER:-pi}"
ROOT="/"
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --user) DESKTOP_USER="$2"; shift ;;
        --root) ROOT="$2"; shift ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

SRC="$(cd "$(dirname "$0")/.." && pwd)"
APP="${ROOT%/}/opt/crypt-companion"
ETC="${ROOT%/}/etc/crypt-companion"
UNIT="${ROOT%/}/etc/systemd/system/crypt-companion.service"
HOME_DIR="$(getent passwd "$DESKTOP_USER" | cut -d: -f6 || true)"
HOME_DIR="${ROOT%/}${HOME_DIR:-/home/$DESKTOP_USER}"

run() {
    echo "+ $*"
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

step() { echo; echo "== $*"; }

if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo), or with --dry-run to see the steps" >&2
    exit 2
fi
if ! grep -q bookworm /etc/os-release 2>/dev/null; then
    echo "note: this is not Raspberry Pi OS Bookworm; continuing, but it is the tested system" >&2
fi

step "System packages (picamera2, lgpio and GPIO from apt; chromium for the kiosk)"
run apt-get update
run apt-get install -y python3-venv python3-picamera2 python3-lgpio python3-gpiozero python3-numpy \
    chromium-browser curl rsync

step "User and folders"
if ! getent passwd companion >/dev/null; then
    run useradd --system --home-dir /var/lib/crypt-companion --shell /usr/sbin/nologin companion
fi
run usermod -aG gpio,video companion
run install -d -m 0755 "$APP" "$ETC"
run install -d -m 0750 -o companion -g companion "${ROOT%/}/var/lib/crypt-companion"

step "The app, in a venv that sees apt's picamera2 and numpy"
run rsync -a --delete --exclude .git --exclude .venv --exclude build "$SRC/" "$APP/src/"
if [ ! -x "$APP/venv/bin/python" ]; then
    run python3 -m venv --system-site-packages "$APP/venv"
fi
run "$APP/venv/bin/pip" install --quiet --upgrade -c "$SRC/deploy/pi-constraints.txt" "$APP/src[vision]"

step "Config (kept if it exists) and the service"
if [ ! -e "$ETC/config.toml" ]; then
    run install -m 0644 "$SRC/deploy/config.toml" "$ETC/config.toml"
fi
run install -m 0644 "$SRC/deploy/crypt-companion.service" "$UNIT"
run install -m 0755 "$SRC/deploy/kiosk.sh" "$APP/kiosk.sh"
if [ "$ROOT" = "/" ]; then
    run systemctl daemon-reload
    run systemctl enable --now crypt-companion.service
fi

step "Kiosk: Chromium full screen on /kiosk when $DESKTOP_USER's desktop starts"
run install -d -o "$DESKTOP_USER" "$HOME_DIR/.config/labwc"
if ! grep -qs crypt-companion "$HOME_DIR/.config/labwc/autostart"; then
    line="$APP/kiosk.sh &  # crypt-companion"
    echo "+ append to $HOME_DIR/.config/labwc/autostart: $line"
    [ "$DRY_RUN" -eq 1 ] || echo "$line" >> "$HOME_DIR/.config/labwc/autostart"
fi
if [ -e "$HOME_DIR/.config/wayfire.ini" ] && ! grep -qs crypt-companion "$HOME_DIR/.config/wayfire.ini"; then
    echo "+ add the kiosk to $HOME_DIR/.config/wayfire.ini [autostart] (wayfire fallback)"
    if [ "$DRY_RUN" -eq 0 ]; then
        printf '\n[autostart]\ncrypt_companion = %s/kiosk.sh\n' "$APP" >> "$HOME_DIR/.config/wayfire.ini"
    fi
fi

step "Done"
echo "Open http://localhost:8000/kiosk on the Pi (set the table PIN there), http://$(hostname).local:8000/ on phones."
