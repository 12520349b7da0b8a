/* svg_common.c -- the pieces every picture writes: escaped text, numbers,
 * the page frame (prolog, style, headings) and the inline click-to-zoom
 * script, which only rearranges what is drawn, so with scripts off the
 * picture is the same, static.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "exporters/svg_priv.h"

void ph_svg_text(ph_output *out, const char *s, size_t max)
{
    size_t n = strlen(s), cut = 0;
    if (max && n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
            n--;                     /* never split a UTF-8 sequence */
        cut = 1;
    }
    const char *run = s, *end = s + n;
    for (const char *c = s; c < end; c++) {
        const char *rep;
        switch (*c) {
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '&': rep = "&amp;"; break;
        case '"': rep = "&quot;"; break;
        default:
            /* Control characters are not allowed in XML 1.0. */
            if ((unsigned char)*c < 0x20 && *c != '\n' && *c != '\t')
                rep = " ";
            else
                continue;
        }
        ph_output_write(out, run, (size_t)(c - run));
        ph_output_puts(out, rep);
        run = c + 1;
    }
    ph_output_write(out, run, (size_t)(end - run));
    if (cut)
        ph_output_puts(out, "...");
}

const char *ph_svg_num(char *buf, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, 48, "%g", v);
        return buf;
    }
    if (v != floor(v) || fabs(v) >= 9e18) {
        snprintf(buf, 48, "%.4g", v);
        return buf;
    }
    int64_t i = (int64_t)v;
    uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
    char tmp[32];
    int n = 0, groups = 0;
    do {
        if (groups == 3) {
            tmp[n++] = ',';
            groups = 0;
        }
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
        groups++;
    } while (u);
    int k = 0;
    if (i < 0)
        buf[k++] = '-';
    while (n)
        buf[k++] = tmp[--n];
    buf[k] = '\0';
    return buf;
}

const char *ph_svg_pct(char *buf, double part, double whole)
{
    if (whole == 0)
        snprintf(buf, 32, "-");
    else
        snprintf(buf, 32, "%.2f%%", 100.0 * part / whole);
    return buf;
}

static const char style[] =
    "<style>\n"
    ".ph-pic text{font-family:Verdana,Arial,sans-serif;font-size:12px;"
    "fill:#000}\n"
    ".ph-pic .ph-title{font-size:17px}\n"
    ".ph-pic .ph-sub{fill:#555}\n"
    ".ph-pic .ph-f text,.ph-pic .ph-t text{pointer-events:none}\n"
    ".ph-pic .ph-f{cursor:pointer}\n"
    ".ph-pic .ph-f:hover rect,.ph-pic .ph-t:hover rect"
    "{stroke:#000;stroke-width:.6}\n"
    ".ph-pic .ph-reset{cursor:pointer;fill:#06c}\n"
    "</style>\n";

void ph_svg_begin(ph_output *out, const ph_svg_opts *o, const char *kind,
                  int height, const char *title, const char *const *sub,
                  size_t nsub)
{
    int w = PH_SVG_WIDTH;
    if (!o->embed)
        ph_output_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
                       "standalone=\"no\"?>\n");
    ph_output_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                     "version=\"1.1\" class=\"ph-pic ph-%s\" width=\"%d\" "
                     "height=\"%d\" viewBox=\"0 0 %d %d\" data-left=\"%d\" "
                     "data-span=\"%d\">\n", kind, w, height, w, height,
                     PH_SVG_MARGIN, w - 2 * PH_SVG_MARGIN);
    ph_output_puts(out, "<!-- made by " PACKAGE_NAME " " PACKAGE_VERSION
                   " -->\n");
    ph_output_puts(out, style);
    ph_output_printf(out, "<rect class=\"ph-bg\" x=\"0\" y=\"0\" "
                     "width=\"%d\" height=\"%d\" fill=\"#f6f6f2\"/>\n",
                     w, height);
    ph_output_printf(out, "<text class=\"ph-title\" x=\"%d\" y=\"24\" "
                     "text-anchor=\"middle\">", w / 2);
    ph_svg_text(out, title, 300);
    ph_output_puts(out, "</text>\n");
    for (size_t i = 0, k = 0; i < nsub; i++) {
        if (!sub[i] || !*sub[i])
            continue;
        ph_output_printf(out, "<text class=\"ph-sub\" x=\"%d\" y=\"%d\" "
                         "text-anchor=\"middle\">", w / 2, 42 + 16 * (int)k++);
        ph_svg_text(out, sub[i], 400);
        ph_output_puts(out, "</text>\n");
    }
}

/* Click a frame to zoom into it (its ancestors span the width, frames
 * outside it are hidden); "Reset zoom" undoes it.  Labels are recut with
 * the rule of ph_svg_label.  The script finds its own <svg>, so several
 * pictures can share one HTML page. */
static const char zoom_script[] =
    "<text class=\"ph-reset\" x=\"10\" y=\"24\" style=\"display:none\">"
    "Reset zoom</text>\n"
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "(function () {\n"
    "  var s = document.currentScript, svg = s && s.closest('svg');\n"
    "  if (!svg) { var all = document.getElementsByTagName('svg');"
    " svg = all[all.length - 1]; }\n"
    "  var L = +svg.getAttribute('data-left'),"
    " W = +svg.getAttribute('data-span');\n"
    "  var frames = svg.querySelectorAll('g.ph-f'),"
    " reset = svg.querySelector('.ph-reset');\n"
    "  function num(g, a) { return +g.getAttribute(a); }\n"
    "  function label(g, px) {\n"
    "    var t = g.querySelector('title'), n = t ?"
    " t.textContent.split('\\n')[0] : '';\n"
    "    var fit = Math.floor((px - 6) / 7);\n"
    "    if (fit < 4) return '';\n"
    "    return n.length <= fit ? n : n.slice(0, fit - 2) + '..';\n"
    "  }\n"
    "  function place(g, x, w) {\n"
    "    var r = g.querySelector('rect'), t = g.querySelector('text');\n"
    "    g.style.display = '';\n"
    "    r.setAttribute('x', (L + x * W).toFixed(2));\n"
    "    r.setAttribute('width', (w * W).toFixed(2));\n"
    "    if (t) { t.setAttribute('x', (L + x * W + 3).toFixed(2));"
    " t.textContent = label(g, w * W); }\n"
    "  }\n"
    "  function zoom(g) {\n"
    "    var fx = num(g, 'data-x'), fw = num(g, 'data-w'),"
    " fd = num(g, 'data-d'), e = 1e-7;\n"
    "    frames.forEach(function (h) {\n"
    "      var x = num(h, 'data-x'), w = num(h, 'data-w'),"
    " d = num(h, 'data-d');\n"
    "      h.classList.remove('ph-anc');\n"
    "      if (d < fd && x <= fx + e && x + w >= fx + fw - e) {"
    " place(h, 0, 1); h.classList.add('ph-anc'); }\n"
    "      else if (d >= fd && x >= fx - e && x + w <= fx + fw + e)"
    " place(h, (x - fx) / fw, w / fw);\n"
    "      else h.style.display = 'none';\n"
    "    });\n"
    "    reset.style.display = '';\n"
    "    svg.setAttribute('data-zoomed', '1');\n"
    "  }\n"
    "  function unzoom() {\n"
    "    frames.forEach(function (h) {"
    " h.classList.remove('ph-anc');"
    " place(h, num(h, 'data-x'), num(h, 'data-w')); });\n"
    "    reset.style.display = 'none';\n"
    "    svg.removeAttribute('data-zoomed');\n"
    "  }\n"
    "  frames.forEach(function (g) {\n"
    "    g.addEventListener('click', function (ev) {"
    " ev.stopPropagation(); zoom(g); });\n"
    "  });\n"
    "  reset.addEventListener('click', unzoom);\n"
    "})();\n"
    "]]></script>\n";

void ph_svg_end(ph_output *out, int zoom)
{
    if (zoom)
        ph_output_puts(out, zoom_script);
    ph_output_puts(out, "</svg>\n");
}

void ph_svg_label(ph_output *out, const char *name, double px)
{
    int fit = (int)floor((px - 6) / 7);
    size_t n = strlen(name);
    if (fit < 4)
        return;
    if (n <= (size_t)fit) {
        ph_svg_text(out, name, 0);
        return;
    }
    /* Cut at fit - 2 characters (bytes for ASCII; the script counts
     * UTF-16 units, close enough for a label), never inside a UTF-8
     * sequence. */
    size_t k = (size_t)fit - 2;
    while (k > 0 && ((unsigned char)name[k] & 0xc0) == 0x80)
        k--;
    char buf[512];
    if (k >= sizeof buf)
        k = sizeof buf - 1;
    memcpy(buf, name, k);
    buf[k] = '\0';
    ph_svg_text(out, buf, 0);
    ph_output_puts(out, "..");
}

const char *ph_svg_name_colour(char *buf, const char *name)
{
    uint32_t h = 2166136261u;              /* FNV-1a */
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        h = (h ^ *s) * 16777619u;
    unsigned r = 205 + (h & 0xff) * 50 / 255;
    unsigned g = 80 + ((h >> 8) & 0xff) * 150 / 255;
    unsigned b = ((h >> 16) & 0xff) * 55 / 255;
    snprintf(buf, 24, "rgb(%u,%u,%u)", r, g, b);
    return buf;
}

const char *ph_svg_short_name(char *buf, size_t size, const char *name)
{
    size_t k = 0;
    int angle = 0, paren = 0;
    for (const char *s = name; *s && k + 5 < size; s++) {
        char c = *s;
        /* "operator<" and friends are names, not template brackets. */
        if (!strncmp(s, "operator", 8)) {
            size_t m = 8;
            while (s[m] && strchr("<>=!+-*/%&|^~[]()", s[m]) && m < 11)
                m++;
            if (!angle && !paren && k + m + 5 < size) {
                memcpy(buf + k, s, m);
                k += m;
                s += m - 1;
                continue;
            }
        }
        if (c == '<' || c == '(') {
            if (!angle && !paren) {
                buf[k++] = c;
                memcpy(buf + k, "...", 3);
                k += 3;
            }
            if (c == '<')
                angle++;
            else
                paren++;
            continue;
        }
        if ((c == '>' && angle) || (c == ')' && paren)) {
            if (c == '>')
                angle--;
            else
                paren--;
            if (!angle && !paren)
                buf[k++] = c;
            continue;
        }
        if (!angle && !paren)
            buf[k++] = c;
    }
    buf[k] = '\0';
    return buf;
}
