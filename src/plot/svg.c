/* SPDX-License-Identifier: MIT */
/* XML text and SVG elements into a strbuf: see svg.h. */
#include "plot/svg.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Length of the UTF-8 sequence at s, or 0 when it is not valid UTF-8. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode: not characters */
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
	    (n == 4 && c < 0x10000) || (c >= 0xd800 && c < 0xe000) ||
	    c > 0x10ffff || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

/* One character of s (n bytes long) escaped; returns the bytes used. */
static size_t escape_one(struct strbuf *sb, const char *s, bool attr)
{
	unsigned char c = (unsigned char)*s;
	size_t n;

	switch (c) {
	case '&':
		strbuf_addstr(sb, "&amp;");
		return 1;
	case '<':
		strbuf_addstr(sb, "&lt;");
		return 1;
	case '>':
		strbuf_addstr(sb, "&gt;");
		return 1;
	case '"':
		strbuf_addstr(sb, attr ? "&quot;" : "\"");
		return 1;
	case '\n':
	case '\t':
		/* in an attribute a newline would be read as a space */
		strbuf_addstr(sb, attr ? (c == '\n' ? "&#10;" : "&#9;") :
			      (c == '\n' ? "\n" : "\t"));
		return 1;
	default:
		break;
	}
	n = c < 0x20 || c == 0x7f ? 0 : utf8_len((const unsigned char *)s);
	if (!n) {
		strbuf_addstr(sb, "\xef\xbf\xbd");	/* U+FFFD */
		return 1;
	}
	strbuf_add(sb, s, n);
	return n;
}

static void escape(struct strbuf *sb, const char *s, bool attr)
{
	while (s && *s)
		s += escape_one(sb, s, attr);
}

void xml_text(struct strbuf *sb, const char *s)
{
	escape(sb, s, false);
}

void xml_attr(struct strbuf *sb, const char *s)
{
	escape(sb, s, true);
}

void text_cut(struct strbuf *sb, const char *s, unsigned int max)
{
	unsigned int k = 0;

	while (s && *s) {
		size_t n = utf8_len((const unsigned char *)s);

		/* the last place left goes to the dots when more follows */
		if (k + 1 >= max && s[n ? n : 1]) {
			strbuf_addstr(sb, "\xe2\x80\xa6");
			return;
		}
		strbuf_add(sb, s, n ? n : 1);
		s += n ? n : 1;
		k++;
	}
}

void svg_num(struct strbuf *sb, double v)
{
	long long t;

	if (!isfinite(v))
		v = 0;
	t = llround(v * 10);
	if (t < 0) {
		strbuf_addch(sb, '-');
		t = -t;
	}
	strbuf_addf(sb, "%lld", t / 10);
	if (t % 10)
		strbuf_addf(sb, ".%lld", t % 10);
}

void svg_begin(struct strbuf *sb, unsigned int w, unsigned int h,
	       const char *attrs, const char *style)
{
	if (style)
		strbuf_addstr(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "viewBox=\"0 0 %u %u\" width=\"%u\" height=\"%u\" "
		    "role=\"img\"%s>\n", w, h, w, h, attrs ? attrs : "");
	if (style)
		strbuf_addf(sb, "<style>%s</style>\n", style);
}

void svg_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</svg>\n");
}

static void text_open(struct strbuf *sb, double x, double y,
		      const char *anchor, const char *cls)
{
	strbuf_addstr(sb, "<text x=\"");
	svg_num(sb, x);
	strbuf_addstr(sb, "\" y=\"");
	svg_num(sb, y);
	strbuf_addch(sb, '"');
	if (anchor && strcmp(anchor, "start"))
		strbuf_addf(sb, " text-anchor=\"%s\"", anchor);
	if (cls)
		strbuf_addf(sb, " class=\"%s\"", cls);
}

void svg_text(struct strbuf *sb, double x, double y, const char *anchor,
	      const char *cls, const char *text)
{
	text_open(sb, x, y, anchor, cls);
	strbuf_addch(sb, '>');
	xml_text(sb, text);
	strbuf_addstr(sb, "</text>\n");
}

void svg_text_up(struct strbuf *sb, double x, double y, const char *cls,
		 const char *text)
{
	text_open(sb, x, y, "middle", cls);
	strbuf_addstr(sb, " transform=\"rotate(-90 ");
	svg_num(sb, x);
	strbuf_addch(sb, ' ');
	svg_num(sb, y);
	strbuf_addstr(sb, ")\">");
	xml_text(sb, text);
	strbuf_addstr(sb, "</text>\n");
}

void svg_line(struct strbuf *sb, double x1, double y1, double x2, double y2,
	      const char *cls)
{
	strbuf_addstr(sb, "<path d=\"M");
	svg_num(sb, x1);
	strbuf_addch(sb, ' ');
	svg_num(sb, y1);
	strbuf_addch(sb, 'L');
	svg_num(sb, x2);
	strbuf_addch(sb, ' ');
	svg_num(sb, y2);
	strbuf_addch(sb, '"');
	if (cls)
		strbuf_addf(sb, " class=\"%s\"", cls);
	strbuf_addstr(sb, "/>\n");
}

void svg_title(struct strbuf *sb, const char *text)
{
	strbuf_addstr(sb, "<title>");
	xml_text(sb, text);
	strbuf_addstr(sb, "</title>");
}
