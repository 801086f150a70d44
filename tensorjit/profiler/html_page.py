"""The HTML of the profiler's report: tables whose columns sort by a click (numbers by
value), figures without their plotly.js (the page carries it once), the page's style and
frame, and the format of amounts."""
import html


class Html(str):
    """Markup made here (its user text already escaped): a table writes it as is."""


class Num:
    """A number shown as ``text``, sorted by ``value``."""
    __slots__ = ("value", "text")

    def __init__(self, value, text):
        self.value, self.text = value, text


def table(headers, rows, css="sort"):
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "\n".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    return f'<table class="{css}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _cell(value):
    if isinstance(value, Num):
        return f'<td class="n" data-v="{value.value:.9g}">{esc(value.text)}</td>'
    if isinstance(value, Html):
        return f"<td>{value}</td>"
    return f"<td>{esc(str(value))}</td>"


def figure(fig):
    # plotly.js is in the page's head once; the figure brings only its data
    return fig.to_html(full_html=False, include_plotlyjs=False,
                       config={"displaylogo": False, "responsive": True})


def more(count, rows):
    return (f'<p class="note">The first {rows} of {count:,} rows.</p>' if count > rows
            else "")


def percent(part, whole):
    share = 100.0 * part / whole if whole else 0.0
    return Num(share, f"{share:.1f}%")


def amount(value):
    for unit in ("", "K", "M", "G"):
        if abs(value) < 1000:
            return f"{value:.4g}{unit}"
        value /= 1000
    return f"{value:.4g}T"


def shortened(text, limit):
    return text if len(text) <= limit else text[:limit - 1] + "…"


def esc(text):
    return html.escape(str(text), quote=True)


STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 2em 3em; color: #222; }
h1 { font-size: 1.5em; margin: .8em 0 .2em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
nav { position: sticky; top: 0; background: #fff; padding: .4em 0; z-index: 10;
      border-bottom: 1px solid #eee; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { padding: 2px 10px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
table.sort th { cursor: pointer; background: #f6f6f6; user-select: none; }
table.facts th { background: none; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td code, pre { font: 12px/1.4 ui-monospace, monospace; }
td { overflow-wrap: break-word; max-width: 50em; }
table.ir td:nth-child(2) { white-space: pre-wrap; max-width: 70em; }
pre { background: #f8f8f8; padding: .6em; overflow: auto; max-height: 40em; }
.note { color: #8a5300; }
"""

SORT_SCRIPT = """
document.querySelectorAll("table.sort th").forEach(function (th) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0], i = th.cellIndex;
    var down = th.dataset.dir !== "down";
    th.dataset.dir = down ? "down" : "up";
    function key(row) {
      var cell = row.cells[i];
      return cell.dataset.v !== undefined ? parseFloat(cell.dataset.v) : cell.textContent;
    }
    Array.prototype.slice.call(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b);
      return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1);
    }).forEach(function (row) { body.appendChild(row); });
  });
});
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{style}</style>
{plotlyjs}
</head><body>
<h1>{title}</h1>
<nav>{nav}</nav>
{body}
<script>{sort}</script>
</body></html>
"""
