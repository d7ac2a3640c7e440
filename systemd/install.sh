#!/usr/bin/env bash
# Install farmbox on Raspberry Pi OS (bookworm or later) as the systemd service
# `farmbox`. Run from a checkout:  sudo systemd/install.sh
#
# What it does (each step is safe to repeat):
#   1. apt: python3-venv, python3-numpy, python3-picamera2 (the camera stack
#      only comes from apt), i2c-tools and ONE GPIO backend (GPIO_BACKEND):
#        lgpio    (default) python3-lgpio: gpiozero's own choice, every Pi model
#        rpi-gpio python3-rpi.gpio, for old Pis; python3-rpi-lgpio is removed,
#                 because it also provides the RPi.GPIO module and the two clash
#   2. groups gpio, i2c, video and the system user `farmbox` in them
#   3. a venv at $PREFIX/.venv made with --system-site-packages (so picamera2
#      and lgpio from apt are visible), farmbox installed into it with numpy<2
#      (apt's picamera2 stack is built against numpy 1.x); I2C at 400 kHz in
#      $BOOT_CONFIG so an OLED frame takes ~26 ms instead of ~100 ms
#   4. $CONFIG_DIR/farmbox.toml from systemd/farmbox.toml, only if absent, then
#      checked (a bad file stops here with one line naming the key)
#   5. the unit in $UNIT_DIR, enabled and (re)started
#
# DRY_RUN=1 prints the commands that change the system instead of running them.
set -euo pipefail

PREFIX=${PREFIX:-/opt/farmbox}
CONFIG_DIR=${CONFIG_DIR:-/etc/farmbox}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
GPIO_BACKEND=${GPIO_BACKEND:-lgpio}
BOOT_CONFIG=${BOOT_CONFIG:-/boot/firmware/config.txt}
DRY_RUN=${DRY_RUN:-0}
SERVICE_USER=farmbox
GROUPS_NEEDED=(gpio i2c video)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

case "$GPIO_BACKEND" in
    lgpio) gpio_packages=(python3-lgpio); remove_packages=() ;;
    rpi-gpio) gpio_packages=(python3-rpi.gpio); remove_packages=(python3-rpi-lgpio) ;;
    *) die "GPIO_BACKEND must be lgpio or rpi-gpio, got '$GPIO_BACKEND'" ;;
esac

[ -f "$SRC/pyproject.toml" ] || die "run me from a farmbox checkout (no $SRC/pyproject.toml)"
[ -f "$SRC/systemd/farmbox.service" ] || die "missing $SRC/systemd/farmbox.service"
if [ "$DRY_RUN" != 1 ] && [ "$(id -u)" != 0 ]; then
    die "run as root: sudo $0"
fi

say "1/5 packages (GPIO backend: $GPIO_BACKEND)"
run apt-get update -qq
for package in "${remove_packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        run apt-get remove -y "$package"
    fi
done
run apt-get install -y --no-install-recommends python3-venv python3-pip python3-numpy \
    python3-picamera2 i2c-tools "${gpio_packages[@]}"
if command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_i2c 0  # 0 = enable the I2C bus for the OLED
fi
# A full OLED frame is ~1 KiB: ~100 ms at the default 100 kHz, ~26 ms at 400 kHz.
if [ -f "$BOOT_CONFIG" ] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$BOOT_CONFIG"; then
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ append to %s: dtparam=i2c_arm_baudrate=400000\n' "$BOOT_CONFIG"
    else
        printf 'dtparam=i2c_arm_baudrate=400000\n' >> "$BOOT_CONFIG"
    fi
    say "I2C set to 400 kHz in $BOOT_CONFIG: takes effect after a reboot"
fi

say "2/5 user $SERVICE_USER in groups ${GROUPS_NEEDED[*]}"
for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/farmbox --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"

say "3/5 venv $PREFIX/.venv"
run install -d -m 0755 "$PREFIX"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    run python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
constraints="$PREFIX/constraints.txt"
if [ "$DRY_RUN" = 1 ]; then
    printf '+ write %s: numpy<2, opencv-python-headless<4.11\n' "$constraints"
else
    printf 'numpy<2\nopencv-python-headless<4.11\n' > "$constraints"
fi
run "$PREFIX/.venv/bin/pip" install --disable-pip-version-check --constraint "$constraints" "$SRC"
run rm -rf "$PREFIX/docs"
run cp -r "$SRC/docs" "$PREFIX/docs"

say "4/5 settings $CONFIG_DIR/farmbox.toml"
run install -d -m 0755 "$CONFIG_DIR"
if [ -e "$CONFIG_DIR/farmbox.toml" ]; then
    say "keeping the existing $CONFIG_DIR/farmbox.toml"
else
    run install -m 0644 "$SRC/systemd/farmbox.toml" "$CONFIG_DIR/farmbox.toml"
fi
run "$PREFIX/.venv/bin/python" -c \
    "import sys; from farmbox.firmware.box.config import load_config; load_config(sys.argv[1])" \
    "$CONFIG_DIR/farmbox.toml"

say "5/5 service"
run install -m 0644 "$SRC/systemd/farmbox.service" "$UNIT_DIR/farmbox.service"
if [ "$GPIO_BACKEND" = rpi-gpio ]; then
    run install -d -m 0755 "$UNIT_DIR/farmbox.service.d"
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ write %s: GPIOZERO_PIN_FACTORY=rpigpio\n' "$UNIT_DIR/farmbox.service.d/gpio.conf"
    else
        printf '[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=rpigpio\nDeviceAllow=char-bcm2835-gpiomem rw\n' \
            > "$UNIT_DIR/farmbox.service.d/gpio.conf"
    fi
fi
run systemctl daemon-reload
run systemctl enable farmbox.service
run systemctl restart farmbox.service
say "done: journalctl -u farmbox -f shows the log; edit $CONFIG_DIR/farmbox.toml and restart to change settings"
