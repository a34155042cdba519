// Opens simfab's HTML reports in headless Chromium and checks that they render, offline.
//
//   node check_report.mjs WEB_DIR PAGES.json
// WEB_DIR is the repository's web/ (playwright-core comes from its node_modules); PAGES.json, written
// by run_report.py, lists the pages and what to expect of each:
//   [{html, screenshot, runs: [{num_ranks, kinds: [chart kinds], slices}],
//     matrix_max (the colour scale's maximum, shared when comparing), hover (rank 0 is busy at 40 %
//     of the chart's width), text: [strings],
//     sweep (a sweep's page only): {series, failed_lines, cells, failed_cells, error}}]
// Per page it fails on: any request beyond the page itself (everything must be inlined; requests are
// also aborted, so a missing inline would show up as an error too), any console error or uncaught
// exception, a chart container without an ECharts instance or with a blank canvas, a missing chart
// kind, a Gantt chart whose rank rows or slices differ from the data, a heatmap whose colour scale
// does not end at the matrix's largest byte count, no tooltip naming rank 0 when the mouse is over
// rank 0's row (when asked), and a missing expected text (the cap notice, an escaped "</script>").
// A sweep's page (web/report/sweep.js) must open on its line chart with `series` lines and
// `failed_lines` failed points marked, then, with the view switched to the heatmap, draw `cells`
// cells of which `failed_cells` are crossed, and show a tooltip naming `error` over the first
// crossed cell. Each page is saved as a full-page screenshot.
// Exit status 0 when every page passes, 1 otherwise.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [webDir, pagesFile] = process.argv.slice(2);
const { chromium } = createRequire(path.join(path.resolve(webDir), 'package.json'))('playwright-core');
const pages = JSON.parse(readFileSync(pagesFile, 'utf8'));

// What the page reports about its charts (runs inside the page).
function inspectCharts() {
  return window.simfabReport.charts.map((c) => {
    const dom = c.instance.getDom();
    const option = c.instance.getOption();
    let painted = 0;
    for (const canvas of dom.querySelectorAll('canvas')) {
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) ++painted;
    }
    const isGantt = c.kind === 'gantt';
    return {
      kind: c.kind,
      run: c.run,
      width: dom.clientWidth,
      height: dom.clientHeight,
      disposed: c.instance.isDisposed(),
      painted,
      rows: isGantt ? option.yAxis[0].data.length : undefined,
      slices: c.slices,
      visualMapMax: c.kind === 'matrix' ? option.visualMap[0].max : undefined,
      series: c.series,
      cells: c.cells,
      failed: c.failed,
    };
  });
}

// The sweep results panel: its line chart, then its heatmap and a failed cell's tooltip.
async function checkSweep(page, expected, fail) {
  const lines = (await page.evaluate(inspectCharts)).find((c) => c.kind === 'sweep-lines');
  if (!lines) return fail('the sweep page has no line chart');
  if (lines.series !== expected.series) fail('sweep lines: ' + lines.series + ' series, not ' + expected.series);
  if (lines.failed !== expected.failed_lines)
    fail('sweep lines: ' + lines.failed + ' failed points marked, not ' + expected.failed_lines);
  await page.selectOption('#sweep-view', 'heatmap');
  await page.waitForTimeout(500);
  const charts = await page.evaluate(inspectCharts);
  const heatmap = charts.find((c) => c.kind === 'sweep-heatmap');
  if (!heatmap || charts.length !== 1) return fail('switching to the heatmap: charts ' + charts.map((c) => c.kind).join(' '));
  if (heatmap.painted < 500) fail('the sweep heatmap is blank');
  if (heatmap.cells !== expected.cells) fail('sweep heatmap: ' + heatmap.cells + ' cells, not ' + expected.cells);
  if (heatmap.failed !== expected.failed_cells)
    fail('sweep heatmap: ' + heatmap.failed + ' failed cells, not ' + expected.failed_cells);
  const at = await page.evaluate(() => {
    const c = window.simfabReport.charts[0];
    return c.failedCell && c.instance.convertToPixel({ xAxisIndex: 0, yAxisIndex: 0 }, c.failedCell);
  });
  if (!at) return fail('sweep heatmap: no crossed cell to hover');
  const dom = await page.$('.chart[data-kind=sweep-heatmap]');
  await dom.scrollIntoViewIfNeeded();
  const box = await dom.boundingBox();
  await page.mouse.move(box.x + at[0], box.y + at[1]);
  await page.waitForTimeout(400);
  const tip = await dom.evaluate((d) => d.innerText);
  if (!tip.includes('failed') || !tip.includes(expected.error))
    fail('no tooltip naming the error over a failed cell (got "' + tip + '")');
}

async function checkPage(browser, spec) {
  const failures = [];
  const fail = (what) => failures.push(what);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const url = pathToFileURL(path.resolve(spec.html)).href;
  // Block the network: the page itself is the only request allowed.
  await context.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  page.on('request', (r) => r.url() !== url && fail('request to ' + r.url()));
  page.on('console', (m) => m.type() === 'error' && fail('console error: ' + m.text()));
  page.on('pageerror', (e) => fail('page error: ' + e.message));

  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.simfabReport && window.simfabReport.ready, null, { timeout: 30000 });
  // Let progressive rendering (large Gantt charts) finish.
  await page.waitForTimeout(1500);
  const charts = await page.evaluate(inspectCharts);

  for (const c of charts) {
    const name = c.kind + ' chart of run ' + c.run;
    if (c.disposed || c.width === 0 || c.height === 0) fail(name + ' has no size');
    if (c.painted < 500) fail(name + ' is blank (' + c.painted + ' painted pixels)');
    if (c.kind === 'matrix' && c.visualMapMax !== spec.matrix_max)
      fail(name + ': colour scale ends at ' + c.visualMapMax + ', the matrix maximum is ' + spec.matrix_max);
  }
  spec.runs.forEach((run, i) => {
    for (const kind of run.kinds)
      if (!charts.some((c) => c.kind === kind && c.run === i)) fail('run ' + i + ' has no ' + kind + ' chart');
    const gantt = charts.find((c) => c.kind === 'gantt' && c.run === i);
    if (gantt && gantt.rows !== run.num_ranks) fail('run ' + i + ': Gantt has ' + gantt.rows + ' rows, not ' + run.num_ranks);
    if (gantt && gantt.slices !== run.slices) fail('run ' + i + ': Gantt draws ' + gantt.slices + ' slices, not ' + run.slices);
  });
  // Hovering over rank 0's row of the (first) Gantt chart shows the slice under the mouse.
  if (spec.hover) {
    const gantt = await page.$('.chart[data-kind=gantt]');
    await gantt.scrollIntoViewIfNeeded();
    const box = await gantt.boundingBox();
    await page.mouse.move(box.x + box.width * 0.4, box.y + 48);  // grid top 36 px, rows >= 24 px
    await page.waitForTimeout(400);
    const tip = await gantt.evaluate((dom) => dom.innerText);
    if (!/rank 0\b[\s\S]* from [\s\S]* to /.test(tip)) fail('no tooltip over the Gantt chart (got "' + tip + '")');
  }

  if (spec.sweep) await checkSweep(page, spec.sweep, fail);

  const text = await page.evaluate(() => document.body.innerText);
  for (const t of spec.text || []) if (!text.includes(t)) fail('the page does not say "' + t + '"');

  await page.screenshot({ path: spec.screenshot, fullPage: true });
  await context.close();
  console.log((failures.length ? 'FAIL ' : 'ok   ') + spec.html + ': ' + charts.length + ' charts (' +
    charts.map((c) => c.kind + c.run).join(' ') + '), screenshot ' + spec.screenshot);
  for (const f of failures) console.log('     ' + f);
  return failures.length === 0;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let ok = true;
try {
  for (const spec of pages) ok = (await checkPage(browser, spec)) && ok;
} finally {
  await browser.close();
}
process.exit(ok ? 0 : 1);
