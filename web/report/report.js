// simfab's HTML report: draws one run, or compares two, from the JSON block the page embeds.
//
// Data (written by src/report/html_report.cpp, documented in html_report.hpp):
//   {title, max_slices, runs: [{file, result, stats, rank_names, gantt, result_only?}]}
// result is `simfab run --json`'s object, stats the run statistics (makespan, per-rank time
// breakdown, message matrix and histogram, collectives, links, link timeline, the packet model's
// port queues, NICs, DVFS hosts' pstate steps, energy, power over time); result_only marks a run read from a --json result (no stats); every time
// is in integer picoseconds. gantt holds the timeline's slices as columns (rank, begin_ps, dur_ps,
// cat, label), the longest ones when the trace had too many.
//
// Layout: a summary first, then one <section> per topic; each section holds one panel per run,
// side by side when comparing (with shared scales, so equal heights mean equal values), except the
// Gantt chart, which is wide and gets one full-width panel per run.
//
// Formats, DOM and chart helpers come from common.js (window.simfabCommon), shared with sweep.js.
//
// For tests and curious users, window.simfabReport = {charts: [{id, kind, run, instance}], ready}.
'use strict';

(function () {
  const data = JSON.parse(document.getElementById('simfab-data').textContent);
  const runs = data.runs;
  const comparing = runs.length > 1;
  const report = (window.simfabReport = { charts: [], ready: false });
  const { integer, decimal, unitFor, formatTime, formatBytes, formatEnergy, formatPercent, element, axisName, makeChart } =
    window.simfabCommon;

  // ---------------------------------------------------------------- colours and formatting

  // One colour per kind of time, shared by the Gantt chart and the per-rank breakdown.
  const kindColours = {
    compute: '#4e79a7',
    p2p: '#f28e2b',
    collective: '#59a14f',
    wait: '#e15759',
    other: '#9c755f',
    cpu: '#76b7b2',
    idle: '#d5d9de',
  };
  const kindNames = {
    compute: 'compute',
    p2p: 'point-to-point',
    collective: 'collective',
    wait: 'wait',
    other: 'other MPI',
    cpu: 'CPU (no MPI track)',
    idle: 'idle (finished early)',
  };
  const runColours = ['#2f5d8a', '#d1603d'];

  // The unit a run's times are shown in: the largest one in which the longest makespan is >= 1.
  const makespanMax = Math.max(...runs.map((r) => r.stats.makespan_ps || r.result.makespan_ps || 0), 1);
  const timeUnit = unitFor(makespanMax);

  // ---------------------------------------------------------------- DOM helpers

  const main = document.getElementById('report');

  // A titled section with a sentence on how to read it, appended to `container` (default: the page);
  // returns the element holding its panels.
  function section(title, explanation, sideBySide, container) {
    const s = element('section');
    s.appendChild(element('h2', '', title));
    if (explanation) s.appendChild(element('p', 'explain', explanation));
    const panels = element('div', 'panels' + (sideBySide && comparing ? ' side-by-side' : ''));
    s.appendChild(panels);
    (container || main).appendChild(s);
    return panels;
  }
  // Two narrow sections next to each other (a single run's matrix and histogram): a container for
  // section(); when comparing, each section is wide already, so this is the page itself.
  function pairRow() {
    if (comparing) return main;
    const row = element('div', 'section-pair');
    main.appendChild(row);
    return row;
  }
  // Run i's panel in a section: headed by the run's name when comparing.
  function panel(panels, i) {
    const p = element('div', 'panel');
    if (comparing) p.appendChild(element('h3', '', runLabel(i)));
    panels.appendChild(p);
    return p;
  }
  function runLabel(i) {
    return String.fromCharCode(65 + i) + ': ' + runs[i].file;
  }
  // An ECharts instance in a new container of `height` pixels, registered for the tests.
  function chart(parent, kind, run, height, option) {
    return makeChart(report, parent, kind, run, height, option);
  }

  // A time axis from 0 to the longest makespan; its end is no round number, so it gets no label.
  function timeAxis(gap) {
    return Object.assign({ type: 'value', min: 0, max: makespanMax / timeUnit.ps, axisLabel: { showMaxLabel: false } },
      axisName('simulated time (' + timeUnit.name + ')', gap));
  }
  // Rank numbers as category labels ("0", "1", ...).
  function rankCategories(n) {
    return Array.from({ length: n }, (_, r) => String(r));
  }
  // Zoom sliders for an axis with many categories.
  function zoomFor(axis, count, visible) {
    if (count <= visible) return [];
    const end = (100 * visible) / count;
    const key = axis === 'x' ? 'xAxisIndex' : 'yAxisIndex';
    return [
      Object.assign({ type: 'slider', start: 0, end, filterMode: 'weakFilter' }, { [key]: 0 },
        axis === 'y' ? { right: 8, width: 16 } : { bottom: 8, height: 18 }),
      Object.assign({ type: 'inside', filterMode: 'weakFilter' }, { [key]: 0 }),
    ];
  }

  // ---------------------------------------------------------------- summary

  // The rows of the summary table: [label, value(run) -> number|string, format, comparable].
  function energyOf(run) {
    if (run.stats.energy && run.stats.energy.total_j !== undefined) return run.stats.energy.total_j;
    return run.result.energy_j;
  }
  const summaryRows = [
    ['Application', (r) => r.result.inputs && r.result.inputs.application, String, false, 'path'],
    ['Format', (r) => r.result.inputs && r.result.inputs.format, String, false],
    ['Platform', (r) => (r.result.inputs && r.result.inputs.platform) || '(ideal hosts)', String, false, 'path'],
    ['Network model', (r) => r.result.model, String, false],
    ['Ranks', (r) => r.result.num_ranks, integer.format, true],
    ['Makespan', (r) => r.stats.makespan_ps || r.result.makespan_ps, formatTime, true],
    ['Messages', (r) => r.stats.messages && r.stats.messages.count, integer.format, true],
    ['Bytes', (r) => r.stats.messages && r.stats.messages.bytes, formatBytes, true],
    ['Point-to-point messages', (r) => r.stats.messages && r.stats.messages.p2p_count, integer.format, true],
    ['Point-to-point bytes', (r) => r.stats.messages && r.stats.messages.p2p_bytes, formatBytes, true],
    ['Collective messages', (r) => r.stats.messages && r.stats.messages.collective_count, integer.format, true],
    ['Collective bytes', (r) => r.stats.messages && r.stats.messages.collective_bytes, formatBytes, true],
    ['Energy', energyOf, formatEnergy, true],
    ['Events simulated', (r) => r.result.events, integer.format, true],
    ['simfab version', (r) => r.result.version, String, false],
    ['Run file', (r) => r.file, String, false, 'path'],
  ];

  // Key figures of one run as cards.
  function drawCards(run) {
    const cards = element('div', 'cards');
    const m = run.stats.messages || {};
    const add = (label, value, detail) => {
      const c = element('div', 'card');
      c.appendChild(element('div', 'label', label));
      c.appendChild(element('div', 'value', value));
      if (detail) c.appendChild(element('div', 'detail', detail));
      cards.appendChild(c);
    };
    add('Predicted makespan', formatTime(run.stats.makespan_ps || run.result.makespan_ps));
    add('Ranks', integer.format(run.result.num_ranks), run.result.model + ' model');
    add('Messages', integer.format(m.count || 0),
      integer.format(m.p2p_count || 0) + ' p2p, ' + integer.format(m.collective_count || 0) + ' collective');
    add('Bytes moved', formatBytes(m.bytes || 0));
    const energy = energyOf(run);
    if (energy !== undefined) add('Energy', formatEnergy(energy));
    main.appendChild(cards);
  }

  // The summary table: one value column per run, then B / A when comparing.
  function drawSummary() {
    if (!comparing) drawCards(runs[0]);
    const panels = section('Summary', comparing ? 'The ratio column is B / A: above 1, run B has more.' : '');
    const table = element('table', 'data' + (comparing ? '' : ' summary'));
    const head = element('tr');
    head.appendChild(element('th', '', ''));
    runs.forEach((_, i) => head.appendChild(element('th', comparing ? 'num' : '', comparing ? runLabel(i) : 'Value')));
    if (comparing) head.appendChild(element('th', 'num', 'B / A'));
    table.appendChild(head);
    for (const [label, value, format, comparable, style] of summaryRows) {
      const values = runs.map(value);
      if (values.every((v) => v === undefined || v === null)) continue;
      const tr = element('tr');
      tr.appendChild(element('td', 'key', label));
      // Numbers are right-aligned when comparing, so the two columns line up digit by digit.
      const className = style === 'path' ? 'path' : comparing && comparable ? 'num' : '';
      for (const v of values) tr.appendChild(element('td', className, v === undefined || v === null ? '–' : format(v)));
      if (comparing) {
        const [a, b] = values;
        const ratio = comparable && typeof a === 'number' && typeof b === 'number' && a !== 0 ? b / a : null;
        const td = element('td', 'num', ratio === null ? '' : decimal.format(ratio) + '×');
        // Less time and less energy are better; more messages is neither.
        if (ratio !== null && ratio !== 1 && (label === 'Makespan' || label === 'Energy'))
          td.className += ratio > 1 ? ' ratio-worse' : ' ratio-better';
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    panels.appendChild(table);
  }

  // ---------------------------------------------------------------- Gantt chart

  // A strip is every slice of one rank and one kind, drawn as ONE path of rectangles: a Gantt chart
  // of 200,000 slices then costs a few hundred graphic elements (one element per slice takes tens
  // of seconds to build). shape: x positions and widths in pixels, the row's top and height.
  echarts.graphic.registerShape('ganttStrip', echarts.graphic.extendShape({
    shape: { xs: [], widths: [], y: 0, height: 0 },
    buildPath(ctx, shape) {
      for (let k = 0; k < shape.xs.length; ++k) ctx.rect(shape.xs[k], shape.y, shape.widths[k], shape.height);
    },
  }));

  // The strips of a run: [{rank, cat, begin: [...], end: [...]}] in the axis unit, slices in time order.
  function ganttStrips(g) {
    const strips = [];
    const index = new Map();  // rank * categories + cat -> strip
    for (let k = 0; k < g.rank.length; ++k) {
      const key = g.rank[k] * g.categories.length + g.cat[k];
      let strip = index.get(key);
      if (!strip) {
        strip = { rank: g.rank[k], cat: g.cat[k], begin: [], end: [], slice: [] };
        index.set(key, strip);
        strips.push(strip);
      }
      const begin = g.begin_ps[k] / timeUnit.ps;
      strip.begin.push(begin);
      strip.end.push(begin + g.dur_ps[k] / timeUnit.ps);
      strip.slice.push(k);
    }
    return strips;
  }

  // Draws one strip (data item [rank, strip, first begin, last end]): the axis is linear, so two
  // coordinates give the mapping; slices outside the plot are skipped, the rest are at least 1 px
  // wide so short calls stay visible. The series clips to the plot.
  function renderStrip(strips, fill, params, api) {
    const strip = strips[api.value(1)];
    const origin = api.coord([0, api.value(0)]);
    const scale = api.coord([1, api.value(0)])[0] - origin[0];
    const left = params.coordSys.x, right = left + params.coordSys.width;
    const height = api.size([0, 1])[1] * 0.72;
    const xs = [], widths = [];
    for (let k = 0; k < strip.begin.length; ++k) {
      const x = origin[0] + strip.begin[k] * scale;
      const width = Math.max((strip.end[k] - strip.begin[k]) * scale, 1);
      if (x > right || x + width < left) continue;
      xs.push(x);
      widths.push(width);
    }
    return { type: 'ganttStrip', shape: { xs, widths, y: origin[1] - height / 2, height }, style: { fill } };
  }

  // The slice of `strip` under time t (axis unit), or the nearest one: binary search on the begins.
  function sliceAt(strip, t) {
    let lo = 0, hi = strip.begin.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (strip.begin[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    const next = Math.min(lo + 1, strip.begin.length - 1);
    return t > strip.end[lo] && strip.begin[next] - t < t - strip.end[lo] ? next : lo;
  }

  // A `simfab run --json` result has the summary and each rank's finish, not the timeline nor the
  // statistics: the panels that need them say where to get them.
  function needsTraceOut(run, parent, what) {
    if (!run.result_only) return false;
    parent.appendChild(element('p', 'note', 'No ' + what + ' in ' + run.file + ', the --json result of a run: ' +
      'write the run with simfab run ... --trace-out FILE and give simfab report that file.'));
    return true;
  }

  function drawGantt(run, i, parent) {
    if (needsTraceOut(run, parent, 'timeline')) return;
    const g = run.gantt;
    const n = run.result.num_ranks;
    if (g.shown < g.total)
      parent.appendChild(element('p', 'warning', 'This trace has ' + integer.format(g.total) + ' slices; the ' +
        integer.format(g.shown) + ' longest are drawn (simfab report --max-slices raises the cap of ' +
        integer.format(data.max_slices) + ').'));
    if (g.cpu_ranks > 0)
      parent.appendChild(element('p', 'note', integer.format(g.cpu_ranks) +
        ' rank(s) have no MPI track in this trace: their CPU activity is drawn instead.'));
    const strips = ganttStrips(g);
    // One series per category, so the legend can hide and show each kind.
    const series = [];
    g.categories.forEach((cat, c) => {
      const items = [];
      strips.forEach((s, k) => s.cat === c && items.push([s.rank, k, s.begin[0], s.end[s.end.length - 1]]));
      if (items.length === 0) return;
      series.push({
        type: 'custom', name: kindNames[cat] || cat, itemStyle: { color: kindColours[cat] || '#999' },
        renderItem: renderStrip.bind(null, strips, kindColours[cat] || '#999'),
        encode: { x: [2, 3], y: 0 }, data: items, clip: true,
      });
    });
    // The tooltip names the slice under the mouse: the strip says which rank and kind, the mouse's
    // time (tracked before ECharts sees the move) picks the slice.
    let mouseX = 0;
    const tooltip = (p) => {
      const strip = strips[p.value[1]];
      const t = instance.convertFromPixel({ xAxisIndex: 0 }, mouseX);
      const k = strip.slice[sliceAt(strip, t)];
      const label = g.labels[g.label[k]], cat = g.categories[g.cat[k]];
      return echarts.format.encodeHTML(run.rank_names[g.rank[k]]) + '<br><b>' + echarts.format.encodeHTML(label) + '</b>' +
        (label === cat ? '' : ' (' + (kindNames[cat] || cat) + ')') + '<br>' +
        formatTime(g.dur_ps[k]) + ', from ' + formatTime(g.begin_ps[k]) + ' to ' + formatTime(g.begin_ps[k] + g.dur_ps[k]);
    };
    const rows = Math.min(n, 40);
    const instance = chart(parent, 'gantt', i, Math.max(220, rows * 24 + 130), {
      tooltip: { formatter: tooltip },
      legend: { top: 0 },
      grid: { left: 70, right: n > rows ? 40 : 24, top: 36, bottom: 70 },
      xAxis: timeAxis(26),
      yAxis: { type: 'category', data: run.rank_names.map((_, r) => 'rank ' + r), inverse: true, axisTick: { show: false } },
      dataZoom: [
        { type: 'slider', xAxisIndex: 0, filterMode: 'weakFilter', bottom: 6, height: 18 },
        { type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter' },
      ].concat(zoomFor('y', n, rows).slice(0, 1)),
      series,
    });
    const dom = instance.getDom();
    dom.addEventListener('mousemove', (e) => (mouseX = e.clientX - dom.getBoundingClientRect().left), true);
    report.charts[report.charts.length - 1].slices = strips.reduce((sum, s) => sum + s.begin.length, 0);
  }

  // ---------------------------------------------------------------- per-rank breakdown

  const breakdownKinds = ['compute', 'p2p', 'collective', 'wait', 'other', 'idle'];

  function drawBreakdown(run, i, parent, yMax) {
    if (needsTraceOut(run, parent, 'per-rank time breakdown')) return;
    const ranks = run.stats.ranks || [];
    const series = breakdownKinds.map((kind) => ({
      type: 'bar', name: kindNames[kind], stack: 'time', barMaxWidth: 48,
      itemStyle: { color: kindColours[kind] },
      data: ranks.map((r) => (r[kind + '_ps'] || 0) / timeUnit.ps),
    }));
    const tooltip = (items) => {
      const r = ranks[items[0].dataIndex];
      const total = breakdownKinds.reduce((s, k) => s + (r[k + '_ps'] || 0), 0) || 1;
      return '<b>' + echarts.format.encodeHTML(run.rank_names[r.rank]) + '</b>, finished at ' + formatTime(r.finish_ps) + '<br>' +
        breakdownKinds.map((k) => items.find((it) => it.seriesName === kindNames[k]).marker + kindNames[k] + ': ' +
          formatTime(r[k + '_ps'] || 0) + ' (' + formatPercent((r[k + '_ps'] || 0) / total) + ')').join('<br>');
    };
    chart(parent, 'breakdown', i, 380, {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: tooltip },
      legend: { top: 0 },
      grid: { left: 70, right: 24, top: 40, bottom: ranks.length > 64 ? 80 : 56 },
      xAxis: Object.assign({ type: 'category', data: rankCategories(ranks.length) }, axisName('rank', 28)),
      yAxis: Object.assign({ type: 'value', max: yMax }, axisName('time (' + timeUnit.name + ')', 50)),
      dataZoom: zoomFor('x', ranks.length, 64),
      series,
    });
  }

  // ---------------------------------------------------------------- collectives table

  function drawCollectives(run, parent) {
    if (needsTraceOut(run, parent, 'collective statistics')) return;
    const rows = (run.stats.collectives || []).slice().sort((a, b) => b.time_ps - a.time_ps);
    if (rows.length === 0) {
      parent.appendChild(element('p', 'note', 'No collective operations.'));
      return;
    }
    const table = element('table', 'data');
    const head = element('tr');
    for (const h of ['Collective', 'Algorithm']) head.appendChild(element('th', '', h));
    for (const h of ['Calls', 'Total time', 'Longest call']) head.appendChild(element('th', 'num', h));
    table.appendChild(head);
    for (const c of rows) {
      const tr = element('tr');
      tr.appendChild(element('td', '', c.name));
      tr.appendChild(element('td', '', c.algorithm || '–'));
      tr.appendChild(element('td', 'num', integer.format(c.calls)));
      tr.appendChild(element('td', 'num', formatTime(c.time_ps)));
      tr.appendChild(element('td', 'num', formatTime(c.max_ps)));
      table.appendChild(tr);
    }
    parent.appendChild(table);
  }

  // ---------------------------------------------------------------- communication matrix

  function matrixMax(run) {
    return (run.stats.matrix || []).reduce((m, e) => Math.max(m, e[3]), 0);
  }

  function drawMatrix(run, i, parent, max) {
    if (needsTraceOut(run, parent, 'communication matrix')) return;
    const n = run.result.num_ranks;
    const cells = (run.stats.matrix || []).filter((e) => e[3] > 0);
    if (cells.length === 0) {
      parent.appendChild(element('p', 'note', 'No messages between ranks.'));
      return;
    }
    const messages = new Map(cells.map((e) => [e[0] * n + e[1], e[2]]));
    // A square plot: 70 px of rank labels on the left, 110 px of axis name and colour scale below.
    const plot = Math.min(460, Math.max(320, n * 18));
    const instance = chart(parent, 'matrix', i, plot + 126, {
      tooltip: {
        formatter: (p) => 'rank ' + p.value[1] + ' → rank ' + p.value[0] + '<br>' + formatBytes(p.value[2]) + ' in ' +
          integer.format(messages.get(p.value[1] * n + p.value[0])) + ' messages',
      },
      grid: { left: 70, width: plot, top: 16, height: plot },
      xAxis: Object.assign({ type: 'category', data: rankCategories(n), splitArea: { show: false } },
        axisName('receiver rank', 26)),
      yAxis: Object.assign({ type: 'category', data: rankCategories(n), inverse: true }, axisName('sender rank', 44)),
      visualMap: {
        type: 'continuous', min: 0, max, calculable: true, orient: 'horizontal', left: 70 + plot / 2 - 110, bottom: 6,
        itemHeight: 220, itemWidth: 12, formatter: (v) => formatBytes(v),
        inRange: { color: ['#c6dbef', '#6baed6', '#2171b5', '#08306b'] },
      },
      series: [{ type: 'heatmap', name: 'bytes', data: cells.map((e) => [e[1], e[0], e[3]]), progressive: 0 }],
    });
    instance.getDom().style.maxWidth = plot + 110 + 'px';
    instance.resize();
  }

  // ---------------------------------------------------------------- message sizes

  function bucketLabels(histogram) {
    return histogram.map((b, k) => {
      if (b.upper_bytes === null || b.upper_bytes === undefined)
        return k > 0 ? '> ' + formatBytes(histogram[k - 1].upper_bytes) : 'all';
      return '≤ ' + formatBytes(b.upper_bytes);
    });
  }

  function drawHistogram(run, i, parent, yMax) {
    if (needsTraceOut(run, parent, 'message sizes')) return;
    const h = run.stats.histogram || [];
    if (h.length === 0) {
      parent.appendChild(element('p', 'note', 'No messages.'));
      return;
    }
    const labels = bucketLabels(h);
    const bar = (name, count, bytes, colour) => ({
      type: 'bar', name, stack: 'messages', itemStyle: { color: colour },
      data: h.map((b) => ({ value: b[count], bytes: b[bytes] })),
    });
    chart(parent, 'histogram', i, 340, {
      tooltip: {
        trigger: 'axis', axisPointer: { type: 'shadow' },
        formatter: (items) => '<b>' + items[0].name + '</b><br>' + items.map((it) => it.marker + it.seriesName + ': ' +
          integer.format(it.data.value) + ' messages, ' + formatBytes(it.data.bytes)).join('<br>'),
      },
      legend: { top: 0 },
      grid: { left: 70, right: 24, top: 40, bottom: 56 },
      xAxis: Object.assign({ type: 'category', data: labels, axisLabel: { interval: 0, rotate: labels.length > 8 ? 30 : 0 } },
        axisName('message size', labels.length > 8 ? 44 : 28)),
      yAxis: Object.assign({ type: 'value', max: yMax, minInterval: 1 }, axisName('messages', 54)),
      series: [
        bar('point-to-point', 'p2p_messages', 'p2p_bytes', kindColours.p2p),
        bar('collective', 'collective_messages', 'collective_bytes', kindColours.collective),
      ],
    });
  }

  // ---------------------------------------------------------------- link utilisation

  const shownLinks = 8;

  // The busiest links' series: [{name, points: [[time, value]]}], as a share of the link's bandwidth
  // when every one has a bandwidth, else as throughput in bytes per second.
  function linkSeries(run) {
    const t = run.stats.link_timeline;
    if (!t || !t.links || t.links.length === 0 || !t.bin_ps) return null;
    const bandwidth = new Map((run.stats.links || []).map((l) => [l.name, l.bandwidth_Bps]));
    const total = (l) => l.bytes.reduce((s, b) => s + b, 0);
    const busiest = t.links.map((l) => ({ l, sum: total(l) })).filter((x) => x.sum > 0)
      .sort((a, b) => b.sum - a.sum).slice(0, shownLinks).map((x) => x.l);
    if (busiest.length === 0) return null;
    const share = busiest.every((l) => bandwidth.get(l.name) > 0);
    const binSeconds = t.bin_ps / 1e12;
    // Carried: the bytes the model moved per bin (flow, smpi, packet); files from before the flag
    // existed are told by their model.
    const carried = t.carried === undefined ? /\b(flow|smpi|packet)\b/.test(run.result.model) : t.carried;
    return {
      share, carried, count: t.links.length, binPs: t.bin_ps,
      fatpipes: busiest.filter((l) => l.fatpipe).map((l) => l.name),
      series: busiest.map((l) => ({
        name: l.name + (l.fatpipe ? ' (fatpipe)' : ''), fatpipe: !!l.fatpipe,
        points: l.bytes.map((b, k) => [((k + 0.5) * t.bin_ps) / timeUnit.ps,
          share ? (100 * b) / (bandwidth.get(l.name) * binSeconds) : b / binSeconds]),
      })),
    };
  }

  function drawLinks(run, i, parent) {
    if (needsTraceOut(run, parent, 'link statistics')) return;
    const s = linkSeries(run);
    if (!s) {
      parent.appendChild(element('p', 'note', 'No link traffic recorded: the ' + run.result.model +
        ' network model keeps no per-link statistics (the flow models do: --cfg network/model=flow).'));
      return;
    }
    parent.appendChild(element('p', 'note', 'The ' + Math.min(shownLinks, s.series.length) + ' busiest of ' +
      integer.format(s.count) + ' links, averaged over ' + formatTime(s.binPs) + ' bins.'));
    // Without link sharing (LogGOPS) nothing caps a link's traffic: what is drawn is the load the
    // messages offered, which may exceed the bandwidth. The sharing models give the bytes they
    // carried, which never exceed a shared link's bandwidth (net/link_bytes_timeline.hpp).
    const offered = s.share && !s.carried;
    if (s.carried)
      parent.appendChild(element('p', 'note', 'The bytes the ' + run.result.model + ' model moved over each ' +
        'link in each bin, when they moved (not spread over each message\'s life): a shared link never carries more ' +
        'than its bandwidth.'));
    if (s.share && s.fatpipes.length > 0)
      parent.appendChild(element('p', 'note', 'Fatpipe links (' + s.fatpipes.join(', ') + '): their bandwidth caps ' +
        'each flow, not the sum, so n flows at full rate draw n × 100 %.'));
    const peak = Math.max(0, ...s.series.filter((l) => !l.fatpipe).map((l) => Math.max(...l.points.map((p) => p[1]))));
    if (s.share && s.carried && peak > 100.5)
      parent.appendChild(element('p', 'note', 'Above 100 % on a shared link: the ' + run.result.model + ' model moved ' +
        'more bytes than the max-min share gives (smpi\'s bandwidth factor, 1.087 for 5776 to 9375 B in SimGrid\'s ' +
        'default table), or a bandwidth profile raised the link above its nominal bandwidth.'));
    // A run whose phases switch models draws the offered load too (their carried bytes are not merged).
    const shares = /\b(flow|smpi|packet)\b/.test(run.result.model);
    if (offered)
      parent.appendChild(element('p', 'note', (shares ? 'The phases of this run do not add up to one carried-bytes ' +
        'timeline: this is the ' : 'The ' + run.result.model + ' model does not share links: this is the ') +
        'offered load, the bytes routed over each link per bin against its bandwidth. Above 100 %, more was sent ' +
        'than the link could carry; a model that shares links (--cfg network/model=flow or packet) spreads it out.'));
    const format = s.share ? (v) => decimal.format(v) + ' %' : (v) => formatBytes(v) + '/s';
    chart(parent, 'links', i, 360, {
      tooltip: {
        trigger: 'axis',
        formatter: (items) => decimal.format(items[0].value[0]) + ' ' + timeUnit.name + '<br>' +
          items.map((it) => it.marker + echarts.format.encodeHTML(it.seriesName) + ': ' + format(it.value[1])).join('<br>'),
      },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 76, right: 24, top: 40, bottom: 56 },
      xAxis: timeAxis(28),
      yAxis: Object.assign({ type: 'value', min: 0, axisLabel: { formatter: format } },
        axisName(s.share ? (offered ? 'offered load (% of bandwidth)' : 'utilisation (% of bandwidth)') : 'throughput', 60)),
      series: s.series.map((l) => ({ type: 'line', name: l.name, data: l.points, showSymbol: false, step: 'middle',
        lineStyle: { width: 1.5 } })),
    });
  }

  // ---------------------------------------------------------------- packet model: switch ports

  // The mean occupancy of the fullest ports' downstream buffers per time bin (stats port_queues,
  // written by the packet model only): where congestion trees build up and drain.
  function drawPorts(run, i, parent) {
    if (needsTraceOut(run, parent, 'port statistics')) return;
    const q = run.stats.port_queues;
    if (!q || !q.ports || q.ports.length === 0 || !q.bin_ps) {
      parent.appendChild(element('p', 'note', 'No port statistics: the ' + run.result.model +
        ' network model has no switch buffers (the packet model does: --cfg network/model=packet).'));
      return;
    }
    parent.appendChild(element('p', 'note', 'The ' + q.ports.length + ' fullest ports, mean bytes waiting in the ' +
      'buffer at each link\'s downstream end, averaged over ' + formatTime(q.bin_ps) + ' bins.'));
    chart(parent, 'ports', i, 320, {
      tooltip: { trigger: 'axis', valueFormatter: formatBytes },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 76, right: 24, top: 40, bottom: 56 },
      xAxis: timeAxis(28),
      yAxis: Object.assign({ type: 'value', min: 0, axisLabel: { formatter: formatBytes } },
        axisName('buffer occupancy', 60)),
      series: q.ports.map((p) => ({ type: 'line', name: p.name, showSymbol: false, step: 'middle',
        lineStyle: { width: 1.5 }, data: p.mean_bytes.map((b, k) => [((k + 0.5) * q.bin_ps) / timeUnit.ps, b]) })),
    });
  }

  // ---------------------------------------------------------------- the NIC model (Portals/BXI)

  // Per host: the commands its NIC took, by payload path (inline in the command, PIO: the CPU
  // writes the payload, DMA: the NIC reads it) and gets, and how busy its PCIe link was over the run.
  function nicHosts(run) {
    const nic = run.stats.nics || (run.result.nic && run.result.nic.nics);
    return nic && nic.length ? nic : null;
  }

  function drawNics(run, i, parent) {
    const nics = nicHosts(run);
    if (!nics && needsTraceOut(run, parent, 'NIC statistics')) return;
    if (!nics) {
      parent.appendChild(element('p', 'note', 'No NIC model in this run (--cfg nic/model=portals adds one).'));
      return;
    }
    const makespan = run.result.makespan_ps || 1;
    const paths = [['inline', 'inline'], ['pio', 'PIO'], ['dma', 'DMA']];
    chart(parent, 'nics', i, 320, {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0 },
      grid: { left: 76, right: 76, top: 40, bottom: nics.length > 8 ? 90 : 60 },
      xAxis: Object.assign({ type: 'category', data: nics.map((n) => n.host),
        axisLabel: { rotate: nics.length > 8 ? 40 : 0 } }, axisName('host', nics.length > 8 ? 56 : 28)),
      yAxis: [Object.assign({ type: 'value', min: 0, minInterval: 1 }, axisName('commands', 56)),
        Object.assign({ type: 'value', min: 0, max: 100, axisLabel: { formatter: (v) => v + ' %' } },
          axisName('PCIe busy', 56))],
      dataZoom: zoomFor('x', nics.length, 48),
      series: paths.map(([key, name]) => ({ type: 'bar', name: name + ' commands', stack: 'commands', barMaxWidth: 48,
        data: nics.map((n) => (n.paths && n.paths[key]) || 0) })).concat([{
        type: 'bar', name: 'gets', stack: 'commands', barMaxWidth: 48, data: nics.map((n) => n.gets || 0) }, {
        type: 'line', name: 'PCIe busy', yAxisIndex: 1, showSymbol: true,
        data: nics.map((n) => (100 * (n.pcie_busy_ps || 0)) / makespan),
        tooltip: { valueFormatter: (v) => decimal.format(v) + ' %' } }]),
    });
  }

  // ---------------------------------------------------------------- energy

  function energyHosts(run) {
    if (run.stats.energy && run.stats.energy.hosts) return run.stats.energy.hosts;
    return run.result.hosts || null;
  }

  // Each DVFS host's pstate over time (stats pstates: steps [from_ps, pstate]), the hosts whose
  // pstate changed most first: what the governor did, and when.
  function drawPstates(run, i, parent) {
    if (needsTraceOut(run, parent, 'pstate timeline')) return;
    const tracks = (run.stats.pstates || []).slice().sort((a, b) => b.changes - a.changes).slice(0, shownLinks);
    if (tracks.length === 0) {
      parent.appendChild(element('p', 'note', 'No host of this platform has several pstates.'));
      return;
    }
    const changes = (run.stats.pstates || []).reduce((n, t) => n + t.changes, 0);
    parent.appendChild(element('p', 'note', integer.format(changes) + ' pstate changes on ' +
      integer.format(run.stats.pstates.length) + ' hosts; ' + (tracks.length < run.stats.pstates.length
        ? 'the ' + tracks.length + ' that changed most are drawn.' : 'pstate 0 is the fastest.')));
    if (tracks.some((t) => t.truncated))
      parent.appendChild(element('p', 'warning', 'Some hosts changed pstate too often to keep every step: ' +
        'their lines stop at the last step kept.'));
    const end = (run.stats.makespan_ps || run.result.makespan_ps) / timeUnit.ps;
    chart(parent, 'pstates', i, 320, {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 76, right: 24, top: 40, bottom: 56 },
      xAxis: timeAxis(28),
      yAxis: Object.assign({ type: 'value', min: 0, minInterval: 1, inverse: true }, axisName('pstate', 48)),
      series: tracks.map((t) => ({ type: 'line', name: t.host, step: 'end', showSymbol: false, lineStyle: { width: 1.5 },
        data: t.steps.map(([from, p]) => [from / timeUnit.ps, p])
          .concat(t.truncated ? [] : [[end, t.steps[t.steps.length - 1][1]]]) })),
    });
  }

  function drawEnergy(run, i, parent, yMax) {
    const hosts = energyHosts(run);
    if (!hosts || hosts.length === 0) {
      parent.appendChild(element('p', 'note', 'This platform declares no power figures.'));
      return;
    }
    chart(parent, 'energy', i, 340, {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: formatEnergy },
      grid: { left: 76, right: 24, top: 20, bottom: hosts.length > 48 ? 90 : 70 },
      xAxis: Object.assign({ type: 'category', data: hosts.map((h) => h.name),
        axisLabel: { rotate: hosts.length > 8 ? 40 : 0 } }, axisName('host', hosts.length > 8 ? 56 : 28)),
      yAxis: Object.assign({ type: 'value', max: yMax, axisLabel: { formatter: formatEnergy } }, axisName('energy', 62)),
      dataZoom: zoomFor('x', hosts.length, 48),
      series: [{ type: 'bar', name: 'energy', barMaxWidth: 48, itemStyle: { color: runColours[i] },
        data: hosts.map((h) => h.energy_j) }],
    });
    // Hosts switched off and on (host_off / simfab_host_off): how long each was not on.
    const off = hosts.filter((h) => h.off_s > 0);
    if (off.length > 0)
      parent.appendChild(element('p', 'note', 'Switched off (shutting down, off or booting): ' +
        off.map((h) => h.name + ' ' + formatTime(h.off_s * 1e12)).join(', ') + '.'));
  }

  // Each host's mean power per time bin (stats energy.power): the hosts with the most energy, and
  // the total of all hosts on the right axis. Bin k covers [k x bin, (k + 1) x bin) within the run,
  // so a line's area is its host's energy (energy/power_timeline.hpp).
  function drawPower(run, i, parent) {
    if (needsTraceOut(run, parent, 'power timeline')) return;
    const p = run.stats.energy && run.stats.energy.power;
    if (!p || !p.bin_ps || !p.total || p.total.watts.length === 0) {
      parent.appendChild(element('p', 'note', 'No power timeline in this file (written before simfab drew one).'));
      return;
    }
    const hosts = p.hosts.slice(0, shownLinks);
    const middle = (k) => ((k * p.bin_ps + Math.min((k + 1) * p.bin_ps, p.end_ps)) / 2) / timeUnit.ps;
    const points = (s) => s.watts.map((w, k) => [middle(k), w]);
    parent.appendChild(element('p', 'note', 'Mean power per ' + formatTime(p.bin_ps) + ' bin of the ' + hosts.length +
      ' hosts that used the most energy (of ' + integer.format(energyHosts(run).length) + '), and of all hosts ' +
      'together (right axis): each line\'s area is its energy, ' + formatEnergy(p.total.energy_j) + ' in all. ' +
      'Idle power, computation, busy-waiting ranks (energy/polling=busy) and hosts switched off are drawn as they ' +
      'happened; a C-state\'s saving is spread evenly over its idle period (exact energy, the period\'s mean power).'));
    const watts = (v) => decimal.format(v) + ' W';
    chart(parent, 'power', i, 340, {
      tooltip: { trigger: 'axis', valueFormatter: watts },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 76, right: 76, top: 40, bottom: 56 },
      xAxis: timeAxis(28),
      yAxis: [Object.assign({ type: 'value', min: 0, axisLabel: { formatter: watts } }, axisName('power per host', 60)),
        Object.assign({ type: 'value', min: 0, axisLabel: { formatter: watts }, splitLine: { show: false } },
          axisName('all hosts', 60))],
      series: hosts.map((h) => ({ type: 'line', name: h.name, data: points(h), showSymbol: false, step: 'middle',
        lineStyle: { width: 1.5 } })).concat([{ type: 'line', name: 'all hosts', yAxisIndex: 1, data: points(p.total),
        showSymbol: false, step: 'middle', lineStyle: { width: 2, type: 'dashed' }, itemStyle: { color: '#555' } }]),
    });
  }

  // ---------------------------------------------------------------- the page

  // The largest value of f over the runs, rounded up to a round multiple of a power of ten: a
  // shared axis maximum when comparing (undefined, i.e. automatic, for a single run).
  function sharedMax(f) {
    if (!comparing) return undefined;
    const max = Math.max(...runs.map(f));
    if (!(max > 0)) return undefined;
    const power = Math.pow(10, Math.floor(Math.log10(max)));
    return [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * power).find((nice) => nice >= max * (1 - 1e-12));
  }
  function eachRun(panels, draw) {
    runs.forEach((run, i) => draw(run, i, panel(panels, i)));
  }

  function draw() {
    const first = runs[0].result;
    document.getElementById('subtitle').textContent = comparing
      ? runs.map((r, i) => runLabel(i) + ' (' + r.result.model + ', ' + r.result.num_ranks + ' ranks)').join('  ·  ')
      : (first.inputs ? first.inputs.application + ' on ' + (first.inputs.platform || 'ideal hosts') : runs[0].file) +
        ', ' + first.model + ' network model';
    drawSummary();

    eachRun(section('Timeline', 'What each rank does over simulated time: one row per rank, one bar per MPI call ' +
      'or computation. Drag the slider or scroll inside the chart to zoom; click a legend entry to hide a kind.'),
      drawGantt);

    const finishMax = sharedMax((r) => (r.stats.makespan_ps || r.result.makespan_ps) / timeUnit.ps);
    eachRun(section('Where each rank spends its time', 'Time per rank by kind of activity, stacked up to the makespan; ' +
      '"idle" is the time between a rank\'s finish and the end of the run.', true),
      (run, i, p) => drawBreakdown(run, i, p, finishMax));

    eachRun(section('Collective operations', 'Total and longest time spent in each collective, summed over ranks.', true),
      (run, _i, p) => drawCollectives(run, p));

    const bytesMax = comparing ? Math.max(...runs.map(matrixMax)) : matrixMax(runs[0]);
    const pair = pairRow();
    eachRun(section('Communication matrix', 'Bytes sent from each rank (row) to each rank (column), collectives included.', true,
      pair), (run, i, p) => drawMatrix(run, i, p, bytesMax));

    const histogramMax = sharedMax((r) => Math.max(...(r.stats.histogram || []).map((b) => b.p2p_messages + b.collective_messages), 0));
    eachRun(section('Message sizes', 'How many messages fall in each size range, point-to-point and collective.', true, pair),
      (run, i, p) => drawHistogram(run, i, p, histogramMax));

    eachRun(section('Link utilisation over time', 'The traffic of the busiest links, per time bin.', true), drawLinks);

    if (runs.some((r) => r.stats.port_queues))
      eachRun(section('Switch port occupancy over time', 'Packet model: how full the fullest ports\' buffers are; ' +
        'a buffer that stays full is a congestion tree holding its senders on credits.', true), drawPorts);

    if (runs.some((r) => nicHosts(r)))
      eachRun(section('NIC activity per host', 'The NIC model (seed 000): commands by payload path, and the ' +
        'share of the run each host\'s PCIe link was busy.', true), drawNics);

    if (runs.some((r) => (r.stats.pstates || []).length > 0))
      eachRun(section('Pstates over time', 'The pstate each host ran at (0 is the fastest): the choices of a DVFS ' +
        'governor, simfab_set_pstate or --cfg energy/pstate.', true), drawPstates);

    if (runs.some((r) => energyHosts(r))) {
      const energyMax = sharedMax((r) => Math.max(...(energyHosts(r) || []).map((h) => h.energy_j), 0));
      eachRun(section('Energy per host', 'Energy each host consumed over the run, idle power included.', true),
        (run, i, p) => drawEnergy(run, i, p, energyMax));
    }
    if (runs.some((r) => r.stats.energy && r.stats.energy.power))
      eachRun(section('Power over time', 'The power the hosts drew, per time bin: where the energy went, and when.',
        true), drawPower);

    window.addEventListener('resize', () => report.charts.forEach((c) => c.instance.resize()));
    report.ready = true;
  }

  draw();
})();
