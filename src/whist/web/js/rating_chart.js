// The rating-history chart: an inline SVG drawn from a player's rated matches of one variant
// (GET /api/players/{id}/profile: history, oldest first). Pure: no DOM, no translations (the
// caller passes the texts), so node --test checks it (tests/js/ratings.test.mjs).

const WIDTH = 320;
const HEIGHT = 140;
const PAD = { left: 34, right: 10, top: 12, bottom: 16 };

// The displayed rating: one decimal, a minus sign that reads as one.
export function formatRating(rating) {
  const text = (Math.round(rating * 10) / 10).toFixed(1);
  return text === "-0.0" ? "0.0" : text.replace("-", "−");
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The vertical range shown: the points' own, padded, never narrower than 2 rating points,
// and always holding 0 (where every player starts) so that two charts read alike.
export function chartRange(ratings) {
  let low = Math.min(0, ...ratings);
  let high = Math.max(0, ...ratings);
  if (high - low < 2) {
    const middle = (high + low) / 2;
    low = middle - 1;
    high = middle + 1;
  }
  const pad = (high - low) * 0.08;
  return { low: low - pad, high: high + pad };
}

// Screen coordinates of each point: the first match at the left edge, the last at the right
// (a lone point in the middle).
export function chartPoints(ratings) {
  const { low, high } = chartRange(ratings);
  const inner = WIDTH - PAD.left - PAD.right;
  const tall = HEIGHT - PAD.top - PAD.bottom;
  const step = ratings.length > 1 ? inner / (ratings.length - 1) : 0;
  return ratings.map((rating, i) => ({
    x: +(PAD.left + (ratings.length > 1 ? i * step : inner / 2)).toFixed(1),
    y: +(PAD.top + ((high - rating) / (high - low)) * tall).toFixed(1),
  }));
}

// history: [{rating, outcome: "win"|"loss"|"draw"|"start"}], oldest first; label: the chart's
// accessible name; pointTitle(point, index): each point's tooltip text. An empty history draws nothing ("").
export function ratingChartSVG(history, { label, pointTitle }) {
  if (!history.length) return "";
  const ratings = history.map((p) => p.rating);
  const { low, high } = chartRange(ratings);
  const points = chartPoints(ratings);
  const yOf = (rating) => +(PAD.top + ((high - rating) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom)).toFixed(1);
  const zero = yOf(0);
  const grid = [high, low].map((value) => {
    const y = yOf(value);
    return `<line class="chart-grid" x1="${PAD.left}" y1="${y}" x2="${WIDTH - PAD.right}" y2="${y}"/>` +
      `<text class="chart-axis" x="${PAD.left - 4}" y="${y + 4}" text-anchor="end">${escape(formatRating(value))}</text>`;
  }).join("");
  const line = points.length > 1
    ? `<polyline class="chart-line" points="${points.map((p) => `${p.x},${p.y}`).join(" ")}"/>`
    : "";
  const dots = points.map((p, i) =>
    `<circle class="chart-dot ${escape(history[i].outcome)}" cx="${p.x}" cy="${p.y}" r="3.5">` +
    `<title>${escape(pointTitle(history[i], i))}</title></circle>`).join("");
  return `<svg class="rating-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escape(label)}">` +
    grid +
    `<line class="chart-zero" x1="${PAD.left}" y1="${zero}" x2="${WIDTH - PAD.right}" y2="${zero}"/>` +
    line + dots + "</svg>";
}
