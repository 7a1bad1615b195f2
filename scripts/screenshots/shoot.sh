#!/bin/sh
# shoot.sh: screenshots of textfrag boxes in headless Chromium, for looking at
# the stylesheet (goldmark-textfrag/style/textfrag.css) in every front end and
# colour scheme. A developer's tool; CI does not run it.
#
#   scripts/screenshots/shoot.sh [OUT]        (default OUT: /tmp/textfrag-shots)
#
# It builds examples/site with the textfrag command and themesite/ (a Hugo
# site whose CSS models a documentation theme's) with the Hugo module, then
# writes OUT/NAME-WIDTH-SCHEME.png for both sites at 1280 and 390 px wide in
# these schemes:
#   light       light OS, no site switch
#   dark        dark OS, no site switch
#   site-dark   light OS, the site's switch on dark  (<html class="dark">)
#   site-light  dark OS, the site's switch on light (<html class="light">)
# and prints, per box of themesite at each width, the gap above the caption,
# the code's font size and tab size, an emphasized line's width against the
# scrolled width, and whether the caption overflows.
#   bs-dark     light OS, Bootstrap's attribute on dark (data-bs-theme="dark")
# The site switch applies to themesite only (its layout reads ?theme= and ?bs=).
# Needs chromium (apt-get install chromium), python3 (to serve OUT on
# 127.0.0.1:$PORT, default 8391) and Go; run from anywhere.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/textfrag-shots}
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
mkdir -p "$out"
rm -rf "$out/site" "$out/themesite"

(cd "$root" && go run ./cmd/textfrag build examples/site -o "$out/site" --highlight-cache=false)

# Served over HTTP: the module's <link> has integrity and crossorigin, which
# Chromium refuses for file:// URLs.
port=${PORT:-8391}
python3 -m http.server -b 127.0.0.1 -d "$out" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
sleep 1
base=http://127.0.0.1:$port
(cd "$root/hugo-module/hugotest" && go tool hugo --quiet --source "$root/scripts/screenshots/themesite" -d "$out/themesite" --baseURL "$base/themesite/")

shot() { # NAME URL WIDTH HEIGHT OS-SCHEME
	profile=$(mktemp -d)
	"$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$profile" --blink-settings=preferredColorScheme=$5 \
		--window-size="$3,$4" --screenshot="$out/$1.png" "$2" 2>/dev/null
	rm -rf "$profile"
}
# preferredColorScheme: 0 dark, 1 light.
for w in 1280 390; do
	h=900
	[ "$w" = 390 ] && h=1700
	shot "site-source-$w-light" "$base/site/source.html" $w $h 1
	shot "site-source-$w-dark" "$base/site/source.html" $w $h 0
	shot "site-rfc-$w-light" "$base/site/rfc.html" $w $h 1
	shot "site-rfc-$w-dark" "$base/site/rfc.html" $w $h 0
	shot "theme-$w-light" "$base/themesite/index.html" $w $h 1
	shot "theme-$w-dark" "$base/themesite/index.html" $w $h 0
	shot "theme-$w-site-dark" "$base/themesite/index.html?theme=dark" $w $h 1
	shot "theme-$w-site-light" "$base/themesite/index.html?theme=light" $w $h 0
	shot "theme-$w-bs-dark" "$base/themesite/index.html?bs=dark" $w $h 1
done
for w in 1280 390; do
	profile=$(mktemp -d)
	echo "themesite at $w px:"
	"$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--window-size="$w,900" --dump-dom "$base/themesite/index.html?measure" 2>/dev/null |
		sed -n '/<pre id="measure">/,/<\/pre>/p' | sed 's/<[^>]*>//g'
	rm -rf "$profile"
done
ls "$out"/*.png
