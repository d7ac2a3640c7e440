#!/usr/bin/env bash
# Install farmbox on Raspberry Pi OS (bookworm or later) as the systemd service
# `farmbox`. Run from a checkout:  sudo systemd/install.sh
#
# What it does (each step is safe to repeat):
#   1. apt: python3-venv, i2c-tools, python3-picamera2 (the camera stack only comes
#      from the Raspberry Pi archive) and, for GPIO_BACKEND=rpi-gpio, python3-rpi.gpio
#      (python3-rpi-lgpio is removed: it provides the RPi.GPIO module too and the two
#      clash). A package no apt source here offers is named in one line and skipped;
#      the rest of the install goes on. The default backend, lgpio, is a pip wheel
#      from the lock file (it links its C library statically) and needs nothing from apt.
#   2. $BOOT_CONFIG: I2C on at 400 kHz, appended under an [all] section so that no
#      [pi4]/[cm5] filter above applies it to one model only; kernel modules whose
#      device classes the unit allows (i2c-dev, videodev, mc) listed in
#      $MODULES_LOAD_DIR/farmbox.conf so they are loaded before the service starts
#   3. groups gpio, i2c, video and the system user `farmbox` in them
#   4. a venv at $PREFIX/.venv made with --system-site-packages (so apt's picamera2 is
#      visible), farmbox installed into it with every version pinned by
#      requirements.lock (numpy 1.x: apt's camera stack is built against it); the
#      wheel in $FARMBOX_WHEEL if set, else built from this checkout
#   5. $CONFIG_DIR/farmbox.toml from systemd/farmbox.toml, only if absent, then checked
#      (a bad file stops here with one line naming the key)
#   6. the unit in $UNIT_DIR with $PREFIX and $CONFIG_DIR written into it, enabled, and
#      (re)started when systemd is running (in a chroot it is only enabled)
#
# DRY_RUN=1 prints the commands that change the system instead of running them.
set -euo pipefail

PREFIX=${PREFIX:-/opt/farmbox}
CONFIG_DIR=${CONFIG_DIR:-/etc/farmbox}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
MODULES_LOAD_DIR=${MODULES_LOAD_DIR:-/etc/modules-load.d}
GPIO_BACKEND=${GPIO_BACKEND:-lgpio}
BOOT_CONFIG=${BOOT_CONFIG:-/boot/firmware/config.txt}
FARMBOX_WHEEL=${FARMBOX_WHEEL:-}
DRY_RUN=${DRY_RUN:-0}
# yes / no / auto (auto: systemd is PID 1 here, i.e. /run/systemd/system exists)
SYSTEMD_RUNNING=${SYSTEMD_RUNNING:-auto}
SERVICE_USER=farmbox
GROUPS_NEEDED=(gpio i2c video)
MODULES_NEEDED=(i2c-dev videodev mc)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCK="$SRC/requirements.lock"

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}
# write FILE TEXT: replace FILE with TEXT (printf format), or say so in a dry run.
# shellcheck disable=SC2059  # TEXT is our own format string
write() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ write %s: %s\n' "$1" "$(printf "$2" | tr '\n' ' ' | sed 's/ *$//')"
    else
        printf "$2" > "$1"
    fi
}
# A path the unit can use as it is: absolute, no spaces or quotes, and not hidden from
# the service by ProtectHome= (/home, /root, /run/user) or PrivateTmp= (/tmp, /var/tmp).
check_dir() {
    local name=$1 dir=$2
    [[ "$dir" =~ ^/[A-Za-z0-9._/-]*[A-Za-z0-9._-]$ ]] \
        || die "$name must be an absolute path of letters, digits and ._-/ (got '$dir')"
    case "$dir/" in
        /home/*|/root/*|/run/user/*|/tmp/*|/var/tmp/*)
            die "$name=$dir is hidden from the service (ProtectHome=, PrivateTmp=): choose a path under /opt, /usr/local, /srv or /etc" ;;
    esac
}
# available PACKAGE: whether some apt source here offers PACKAGE.
available() {
    local candidate
    candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}
# boot_line KEY VALUE: dtparam=KEY=VALUE in $BOOT_CONFIG under [all], unless KEY is set.
# Lines appended after a [pi4] or [cm5] filter would apply to that model only.
boot_line() {
    local key=$1 value=$2 last_section header=""
    [ -f "$BOOT_CONFIG" ] || return 0
    grep -q "^dtparam=$key=" "$BOOT_CONFIG" && return 0
    last_section=$(grep -E '^\[[^]]*\]' "$BOOT_CONFIG" | tail -n 1 || true)
    if [ "$BOOT_ALL_OPENED" = 0 ] && [ -n "$last_section" ] && [ "$last_section" != "[all]" ]; then
        header="[all]"
    fi
    BOOT_ALL_OPENED=1
    BOOT_CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ append to %s: %sdtparam=%s=%s\n' "$BOOT_CONFIG" "${header:+$header }" "$key" "$value"
        return 0
    fi
    [ -z "$header" ] || printf '\n%s\n' "$header" >> "$BOOT_CONFIG"
    printf 'dtparam=%s=%s\n' "$key" "$value" >> "$BOOT_CONFIG"
}

case "$GPIO_BACKEND" in
    lgpio) gpio_packages=(); remove_packages=() ;;
    rpi-gpio) gpio_packages=(python3-rpi.gpio); remove_packages=(python3-rpi-lgpio) ;;
    *) die "GPIO_BACKEND must be lgpio or rpi-gpio, got '$GPIO_BACKEND'" ;;
esac
check_dir PREFIX "$PREFIX"
check_dir CONFIG_DIR "$CONFIG_DIR"

[ -f "$SRC/pyproject.toml" ] || die "run me from a farmbox checkout (no $SRC/pyproject.toml)"
[ -f "$SRC/systemd/farmbox.service" ] || die "missing $SRC/systemd/farmbox.service"
[ -f "$LOCK" ] || die "missing $LOCK (the pinned versions)"
if [ -n "$FARMBOX_WHEEL" ] && [ ! -f "$FARMBOX_WHEEL" ]; then
    die "FARMBOX_WHEEL=$FARMBOX_WHEEL is not a file"
fi
if [ "$DRY_RUN" != 1 ] && [ "$(id -u)" != 0 ]; then
    die "run as root: sudo $0"
fi

say "1/6 packages (GPIO backend: $GPIO_BACKEND)"
run apt-get update -qq
for package in "${remove_packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        run apt-get remove -y "$package"
    fi
done
wanted=(python3-venv i2c-tools python3-picamera2 "${gpio_packages[@]}")
installable=()
for package in "${wanted[@]}"; do
    if available "$package" || { [ "$DRY_RUN" = 1 ] && ! command -v apt-cache >/dev/null; }; then
        installable+=("$package")
    elif [ "$package" = python3-venv ]; then
        die "python3-venv is not available from apt here: add a Debian or Raspberry Pi OS source"
    elif [ "$package" = python3-picamera2 ]; then
        say "python3-picamera2 not available from apt here (it comes from the Raspberry Pi archive): camera source picamera2 will not work, usb:N and none still do"
    else
        say "$package not available from apt here: skipped"
    fi
done
run apt-get install -y --no-install-recommends "${installable[@]}"

say "2/6 boot settings $BOOT_CONFIG and kernel modules"
BOOT_CHANGED=0
BOOT_ALL_OPENED=0
boot_line i2c_arm on
# A full OLED frame is ~1 KiB: ~100 ms at the default 100 kHz, ~26 ms at 400 kHz.
boot_line i2c_arm_baudrate 400000
if [ "$BOOT_CHANGED" = 1 ]; then
    say "I2C on at 400 kHz in $BOOT_CONFIG: takes effect after a reboot"
elif [ ! -f "$BOOT_CONFIG" ]; then
    say "no $BOOT_CONFIG (not a Raspberry Pi OS boot partition): I2C settings skipped"
fi
run install -d -m 0755 "$MODULES_LOAD_DIR"
write "$MODULES_LOAD_DIR/farmbox.conf" \
    "# farmbox: load these before farmbox.service so its DeviceAllow= classes exist\n$(printf '%s\\n' "${MODULES_NEEDED[@]}")"

say "3/6 user $SERVICE_USER in groups ${GROUPS_NEEDED[*]}"
for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/farmbox --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"

say "4/6 venv $PREFIX/.venv (versions from requirements.lock)"
run install -d -m 0755 "$PREFIX"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    run python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
run install -m 0644 "$LOCK" "$PREFIX/requirements.lock"
run "$PREFIX/.venv/bin/pip" install --disable-pip-version-check --constraint "$PREFIX/requirements.lock" \
    "${FARMBOX_WHEEL:-$SRC}[pi]"
run rm -rf "$PREFIX/docs"
run cp -r "$SRC/docs" "$PREFIX/docs"

say "5/6 settings $CONFIG_DIR/farmbox.toml"
run install -d -m 0755 "$CONFIG_DIR"
if [ -e "$CONFIG_DIR/farmbox.toml" ]; then
    say "keeping the existing $CONFIG_DIR/farmbox.toml"
else
    run install -m 0644 "$SRC/systemd/farmbox.toml" "$CONFIG_DIR/farmbox.toml"
fi
run "$PREFIX/.venv/bin/python" -c \
    "import sys; from farmbox.firmware.box.config import load_config; load_config(sys.argv[1])" \
    "$CONFIG_DIR/farmbox.toml"

say "6/6 service $UNIT_DIR/farmbox.service"
run install -d -m 0755 "$UNIT_DIR"
render_unit() {
    sed -e "s|/opt/farmbox|$PREFIX|g" -e "s|/etc/farmbox|$CONFIG_DIR|g" "$SRC/systemd/farmbox.service"
}
if [ "$DRY_RUN" = 1 ]; then
    printf '+ write %s:\n' "$UNIT_DIR/farmbox.service"
    render_unit | sed 's/^/| /'
else
    render_unit > "$UNIT_DIR/farmbox.service.new"
    chmod 0644 "$UNIT_DIR/farmbox.service.new"
    mv "$UNIT_DIR/farmbox.service.new" "$UNIT_DIR/farmbox.service"
fi
if [ "$GPIO_BACKEND" = rpi-gpio ]; then
    run install -d -m 0755 "$UNIT_DIR/farmbox.service.d"
    # Current Pi kernels give /dev/gpiomem from the rpi-gpiomem misc driver (no
    # bcm2835-gpiomem class any more): allow the node by its path.
    write "$UNIT_DIR/farmbox.service.d/gpio.conf" \
        "[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=rpigpio\nDeviceAllow=/dev/gpiomem rw\n"
else
    run rm -f "$UNIT_DIR/farmbox.service.d/gpio.conf"
fi
if [ "$SYSTEMD_RUNNING" = yes ] || { [ "$SYSTEMD_RUNNING" = auto ] && [ -d /run/systemd/system ]; }; then
    run systemctl daemon-reload
    run systemctl enable farmbox.service
    run systemctl restart farmbox.service
    say "done: journalctl -u farmbox -f shows the log; edit $CONFIG_DIR/farmbox.toml and restart to change settings"
else
    run systemctl enable farmbox.service
    say "systemd is not running here (a chroot?): farmbox.service is enabled and starts at the next boot"
fi
