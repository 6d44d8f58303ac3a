// node --test: the rating-history chart (an SVG string, no browser needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { chartPoints, chartRange, formatRating, ratingChartSVG } from "../../src/whist/web/js/rating_chart.js";

const texts = { label: "Rating history", pointTitle: (p, i) => `Match ${i + 1}: ${p.rating} <${p.outcome}>` };

test("ratings read with one decimal and a true minus sign", () => {
  assert.equal(formatRating(12.345), "12.3");
  assert.equal(formatRating(-3.26), "−3.3");
  assert.equal(formatRating(-0.01), "0.0");
  assert.equal(formatRating(0), "0.0");
});

test("the range holds 0 and every point, and is never flat", () => {
  const { low, high } = chartRange([3, 7]);
  assert.ok(low < 0 && high > 7);
  const flat = chartRange([0]);
  assert.ok(flat.high - flat.low >= 2);
  const negative = chartRange([-5, -2]);
  assert.ok(negative.low < -5 && negative.high > 0);
});

test("points run left to right in order, higher ratings higher up", () => {
  const points = chartPoints([1, 4, 2]);
  assert.equal(points.length, 3);
  assert.ok(points[0].x < points[1].x && points[1].x < points[2].x);
  assert.ok(points[1].y < points[2].y && points[2].y < points[0].y); // SVG y grows downwards
  const [alone] = chartPoints([5]);
  assert.equal(alone.x, 34 + (320 - 34 - 10) / 2);
});

test("the chart is one labelled SVG: a line, a dot per match coloured by outcome", () => {
  const history = [
    { rating: 0.5, outcome: "win" },
    { rating: -1.2, outcome: "loss" },
    { rating: 2.25, outcome: "draw" },
  ];
  const svg = ratingChartSVG(history, texts);
  assert.match(svg, /^<svg class="rating-chart" viewBox="0 0 320 140" role="img" aria-label="Rating history">/);
  assert.ok(svg.endsWith("</svg>"));
  assert.equal((svg.match(/<circle /g) || []).length, 3);
  assert.equal((svg.match(/<polyline /g) || []).length, 1);
  assert.match(svg, /class="chart-dot win"/);
  assert.match(svg, /class="chart-dot loss"/);
  assert.match(svg, /class="chart-dot draw"/);
  // Texts are escaped: a tooltip cannot open an element.
  assert.match(svg, /<title>Match 1: 0.5 &#60;win&#62;<\/title>/);
});

test("one match draws a dot and no line; no match draws nothing", () => {
  const svg = ratingChartSVG([{ rating: 3, outcome: "win" }], texts);
  assert.equal((svg.match(/<circle /g) || []).length, 1);
  assert.ok(!svg.includes("<polyline"));
  assert.equal(ratingChartSVG([], texts), "");
});
