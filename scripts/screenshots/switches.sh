#!/bin/sh
# switches.sh: screenshots of a textfrag box under the light/dark switch of
# each theme the stylesheet follows (goldmark-textfrag/style/textfrag.css,
# "Site switches"; TestThemeSwitches holds the same list). A developer's
# tool; CI does not run it.
#
#   scripts/screenshots/switches.sh [OUT]     (default OUT: /tmp/textfrag-switches)
#
# Each fixture page sets <html> as the theme's own script leaves it (class,
# data-scheme, data-theme-mode, data-bs-theme, data-theme, data-r-theme-variant,
# data-default-appearance, color-theme) and paints its page in the colours of that state.
# OUT/os-light.png shows every fixture with the reader's system set to light,
# OUT/os-dark.png with it set to dark: a box must match its page in both
# (fixtures named "auto" follow the system, and Ananke, which has no dark
# mode, is the one page whose box follows the system against its page).
# Needs chromium and python3.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/textfrag-switches}
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
rm -rf "$out"
mkdir -p "$out/f"
cp "$root/goldmark-textfrag/style/textfrag.css" "$out/f/textfrag.css"

box='<figure class="textfrag textfrag-line" data-textfrag-fragment="line=0,3"><figcaption class="textfrag-caption"><span class="textfrag-title">Handler</span> <a class="textfrag-source" href="#">src/server.go</a> <span class="textfrag-range">lines 1–3</span></figcaption><div class="highlight"><pre class="chroma"><code><span class="line"><span class="ln">1</span><span class="cl"><span class="kd">func</span> <span class="nf">Handle</span><span class="p">(</span><span class="nx">w</span> <span class="nx">io</span><span class="p">.</span><span class="nx">Writer</span><span class="p">)</span> <span class="p">{</span></span></span><span class="line"><span class="ln">2</span><span class="cl">	<span class="k">return</span> <span class="s">"ok"</span> <span class="c1">// reply</span></span></span><span class="line"><span class="ln">3</span><span class="cl"><span class="p">}</span></span></span></code></pre></div></figure>'

# fixture NAME PAGE-SCHEME HTML-ATTRIBUTES
n=0
fixture() {
	n=$((n + 1))
	case $2 in
	dark) bg='#16181d' fg='#e6e6e6' ;;
	light) bg='#ffffff' fg='#1a1a1a' ;;
	*) bg='Canvas' fg='CanvasText' ;;
	esac
	cat >"$out/f/$1.html" <<HTML
<!doctype html>
<html $3>
<head><meta charset="utf-8"><link rel="stylesheet" href="textfrag.css">
<style>html { color-scheme: light dark; } body { margin: 0; padding: 6px 10px; background: $bg; color: $fg; font: 13px system-ui, sans-serif; } .textfrag { margin: 4px 0; }</style>
<script>if ("$2" === "system") document.documentElement.style.background = "Canvas";</script>
</head>
<body><b>$1</b> — page $2<br><code>&lt;html $(printf '%s' "$3" | sed 's/&/\&amp;/g; s/</\&lt;/g')&gt;</code>
$box
</body>
</html>
HTML
	frames="$frames<iframe src=\"f/$1.html\"></iframe>"
}
frames=
fixture stack-dark dark 'data-scheme="dark"'
fixture stack-light light 'data-scheme="light"'
fixture fixit-dark dark 'data-theme-mode="dark"'
fixture fixit-light light 'data-theme-mode="light"'
fixture fixit-auto system 'data-theme-mode="auto"'
fixture docsy-dark dark 'data-bs-theme="dark"'
fixture docsy-light light 'data-bs-theme="light"'
fixture papermod-dark dark 'data-theme="dark"'
fixture papermod-light light 'data-theme="light"'
fixture book-contrast-dark dark 'data-theme="contrast-dark"'
fixture book-catppuccin-light light 'data-theme="catppuccin-light"'
fixture book-auto system 'data-theme="auto"'
fixture hextra-dark dark 'class="dark" style="color-scheme: dark"'
fixture hextra-light light 'class="light" style="color-scheme: light"'
fixture congo-dark dark 'class="dark" data-default-appearance="light" data-auto-appearance="true"'
fixture congo-light light 'data-default-appearance="light" data-auto-appearance="true"'
fixture blowfish-dark dark 'class="dark" data-default-appearance="dark" data-auto-appearance="false"'
fixture blowfish-light light 'data-default-appearance="dark" data-auto-appearance="true"'
fixture relearn-dark dark 'data-r-theme-variant="relearn-dark"'
fixture relearn-zen-light light 'data-r-theme-variant="zen-light"'
fixture relearn-neon dark 'data-r-theme-variant="neon"'
fixture relearn-learn light 'data-r-theme-variant="learn"'
fixture geekdoc-dark dark 'color-theme="dark"'
fixture geekdoc-light light 'color-theme="light"'
fixture ananke light 'lang="en"'
cat >"$out/index.html" <<HTML
<!doctype html>
<html><head><meta charset="utf-8"><style>body { margin: 0; display: grid; grid-template-columns: repeat(4, 1fr); gap: 4px; background: #888; } iframe { width: 100%; height: 175px; border: 0; }</style></head>
<body>$frames</body></html>
HTML

port=${PORT:-8392}
python3 -m http.server -b 127.0.0.1 -d "$out" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
sleep 1
for scheme in light dark; do
	# preferredColorScheme: 0 dark, 1 light.
	pref=1
	[ $scheme = dark ] && pref=0
	profile=$(mktemp -d)
	"$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$profile" --blink-settings=preferredColorScheme=$pref \
		--window-size=1600,1100 --screenshot="$out/os-$scheme.png" "http://127.0.0.1:$port/index.html" 2>/dev/null
	rm -rf "$profile"
done
ls "$out"/*.png
