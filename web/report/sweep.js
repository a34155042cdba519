// simfab's HTML report of a parameter sweep: the sweep results panel (issue 32), drawn from the
// JSON block the page embeds (src/report/sweep_panel.hpp documents it):
//   {title, sweep: {file, points, ok, failed, axes: [{name, numeric, unit, values, numbers?, index}],
//                   results: [{name, unit, values, best}], status, error}}
// Per point (file order): each axis' value index, each result column's value (null: failed or
// empty), its status and error.
//
// The page: a summary (points, ok, failed, the best point of the chosen column), then the panel:
//   - Lines: the chosen result column against one axis (x), one line per combination of the other
//     axes' values (the legend). A numeric axis is a numeric scale (its default value, an empty
//     cell, is off that scale and said so), a categorical one a list of categories. A failed point
//     is a gap in its line and a dashed red mark whose tooltip names the error; never a value.
//   - Heatmap: the column over two axes (x and y), the other axes fixed by selectors; a colour
//     scale spanning the column over the whole sweep, the value on hover; a failed point is a
//     crossed cell naming its status, its error on hover.
// then the failed points with their errors.
//
// For tests: window.simfabReport = {charts: [{id, kind, run, instance, series, cells, failed,
// failedCell}], ready}; kind is 'sweep-lines' or 'sweep-heatmap' (one chart at a time); series
// counts the lines, cells the heatmap's drawn cells, failed the failed points marked, failedCell the
// [x, y] data coordinates of the first crossed cell.
'use strict';

(function () {
  const data = JSON.parse(document.getElementById('simfab-data').textContent);
  const sweep = data.sweep;
  const axes = sweep.axes;
  const results = sweep.results;
  const report = (window.simfabReport = { charts: [], ready: false });
  const { integer, decimal, formatTime, formatBytes, formatEnergy, element, escapeHtml, axisName, makeChart } =
    window.simfabCommon;
  const main = document.getElementById('report');
  const failedColour = '#b42318';
  const heatColours = ['#f7fbff', '#c6dbef', '#6baed6', '#2171b5', '#08306b'];

  // ---------------------------------------------------------------- values as text

  function formatValue(v, unit) {
    if (v === null || v === undefined) return '–';
    switch (unit) {
      case 's': return formatTime(v * 1e12);
      case 'ps': return formatTime(v);
      case 'J': return formatEnergy(v);
      case 'B': return formatBytes(v);
      case 'B/s': return formatBytes(v) + '/s';
      case 'flop/s': return decimal.format(v) + ' flop/s';
      default: return decimal.format(v);
    }
  }
  function valueText(axis, k) {
    return axis.values[k] === '' ? '(default)' : axis.values[k];
  }
  function pointText(p, skip) {
    return axes.filter((_, i) => !(skip || []).includes(i))
      .map((a) => a.name + ' = ' + valueText(a, a.index[p])).join(', ');
  }
  function failureText(p) {
    return 'failed (' + sweep.status[p] + ')' + (sweep.error[p] ? ': ' + sweep.error[p] : '');
  }
  function hasValues(c) {
    return c.values.some((v) => v !== null);
  }

  // ---------------------------------------------------------------- what the reader chose

  const firstNumeric = axes.findIndex((a) => a.numeric);
  const state = {
    column: Math.max(0, results.findIndex((c) => c.name === 'makespan_s' && hasValues(c))),
    view: 'lines',
    x: Math.max(0, firstNumeric),
    y: axes.length > 1 ? (firstNumeric === 0 || firstNumeric < 0 ? 1 : 0) : null,
    fixed: axes.map(() => 0),  // heatmap: the value index of each axis that is neither x nor y
  };

  function select(id, label, options, value, onChange) {
    const wrap = element('label', 'control');
    wrap.appendChild(element('span', '', label + ' '));
    const s = element('select');
    s.id = id;
    options.forEach(([v, text]) => {
      const o = element('option', '', text);
      o.value = String(v);
      s.appendChild(o);
    });
    s.value = String(value);
    s.addEventListener('change', () => onChange(s.value));
    wrap.appendChild(s);
    return wrap;
  }

  // ---------------------------------------------------------------- summary and failures

  let bestCell = null;
  function drawSummary() {
    const section = element('section');
    section.appendChild(element('h2', '', 'Summary'));
    const table = element('table', 'data summary');
    const row = (label, value) => {
      const tr = element('tr');
      tr.appendChild(element('td', 'key', label));
      const td = element('td', '', value);
      tr.appendChild(td);
      table.appendChild(tr);
      return td;
    };
    row('Results file', sweep.file).className = 'path';
    row('Points', integer.format(sweep.points));
    row('ok', integer.format(sweep.ok));
    row('Failed', integer.format(sweep.failed)).className = sweep.failed ? 'ratio-worse' : '';
    row('Axes', axes.map((a) => a.name + ' (' + a.values.length + (a.numeric ? ', numeric' : '') + ')').join(' × '));
    bestCell = row('Best point', '');
    section.appendChild(table);
    main.appendChild(section);
  }
  function updateBest() {
    const c = results[state.column];
    bestCell.textContent = c.best === null ? 'no ok point has a ' + c.name
      : 'lowest ' + c.name + ': ' + formatValue(c.values[c.best], c.unit) + ' at ' + pointText(c.best);
  }

  function drawFailures() {
    const failed = sweep.status.map((s, p) => (s === 'ok' ? -1 : p)).filter((p) => p >= 0);
    if (!failed.length) return;
    const section = element('section');
    section.appendChild(element('h2', '', 'Failed points'));
    section.appendChild(element('p', 'explain', 'Points whose run did not end well: they have no values and are ' +
      'marked as failed in the charts.'));
    const table = element('table', 'data');
    const head = element('tr');
    for (const h of axes.map((a) => a.name).concat(['status', 'error'])) head.appendChild(element('th', '', h));
    table.appendChild(head);
    for (const p of failed) {
      const tr = element('tr');
      axes.forEach((a) => tr.appendChild(element('td', '', valueText(a, a.index[p]))));
      tr.appendChild(element('td', 'ratio-worse', sweep.status[p]));
      tr.appendChild(element('td', 'path', sweep.error[p]));
      table.appendChild(tr);
    }
    section.appendChild(table);
    main.appendChild(section);
  }

  // ---------------------------------------------------------------- the charts

  const tooltip = { trigger: 'item', confine: true, textStyle: { fontSize: 12 } };

  function valueAxis(c, gap) {
    return Object.assign({ type: 'value', scale: true, axisLabel: { formatter: (v) => formatValue(v, c.unit) } },
      axisName(c.name, gap));
  }

  // The result column against axis x: one line per combination of the other axes' values.
  function drawLines(parent, notes) {
    const c = results[state.column], xa = axes[state.x];
    const others = axes.map((_, i) => i).filter((i) => i !== state.x);
    const onScale = (p) => !xa.numeric || xa.numbers[xa.index[p]] !== null;
    const xOf = (p) => (xa.numeric ? xa.numbers[xa.index[p]] : xa.index[p]);
    const groups = new Map();
    for (let p = 0; p < sweep.points; ++p) {
      const key = others.map((i) => axes[i].index[p]);
      const id = key.join(',');
      if (!groups.has(id)) groups.set(id, { key, points: [] });
      groups.get(id).points.push(p);
    }
    const sorted = [...groups.values()].sort((a, b) => {
      for (let k = 0; k < a.key.length; ++k) if (a.key[k] !== b.key[k]) return a.key[k] - b.key[k];
      return 0;
    });
    let failed = 0, offScale = 0;
    const series = sorted.map((g) => {
      const name = others.length === 0 ? c.name : others.length === 1 ? valueText(axes[others[0]], g.key[0])
        : others.map((i, k) => axes[i].name + '=' + valueText(axes[i], g.key[k])).join(', ');
      const shown = g.points.filter(onScale).sort((p, q) => xOf(p) - xOf(q));
      offScale += g.points.length - shown.length;
      const marks = shown.filter((p) => sweep.status[p] !== 'ok');
      failed += marks.length;
      return {
        type: 'line', name, connectNulls: false, symbolSize: 7,
        data: shown.map((p) => ({ value: [xOf(p), c.values[p]], name: String(p) })),
        markLine: {
          symbol: ['none', 'circle'], symbolSize: 8, silent: false, animation: false,
          lineStyle: { color: failedColour, type: 'dashed', width: 1.5 },
          label: { formatter: '✕ failed', color: failedColour, fontSize: 11 },
          data: marks.map((p) => ({ xAxis: xOf(p), name: String(p) })),
        },
      };
    });
    if (offScale)
      notes.push(offScale + ' point(s) run with the default ' + xa.name + ' (an empty cell): not on its numeric scale.');
    const xAxis = xa.numeric
      ? Object.assign({ type: 'value', scale: true, axisLabel: { formatter: (v) => formatValue(v, xa.unit) } },
        axisName(xa.name, 30))
      : Object.assign({ type: 'category', data: xa.values.map((_, k) => valueText(xa, k)) }, axisName(xa.name, 30));
    const instance = makeChart(report, parent, 'sweep-lines', 0, 420, {
      tooltip: Object.assign({}, tooltip, {
        formatter: (q) => {
          const p = Number(q.name);
          const v = c.values[p];
          const lines = q.componentType === 'markLine' ? [q.seriesName, pointText(p), failureText(p)]
            : [pointText(p), c.name + ': ' + (sweep.status[p] !== 'ok' ? failureText(p)
              : v === null ? 'no value' : formatValue(v, c.unit))];
          return lines.map(escapeHtml).join('<br>');
        },
      }),
      legend: { type: 'scroll', top: 0 },
      grid: { left: 90, right: 40, top: 40, bottom: 50 },
      xAxis, yAxis: valueAxis(c, 70), series,
    });
    Object.assign(report.charts[report.charts.length - 1], { series: series.length, failed });
    return instance;
  }

  // The result column over axes x and y, every other axis at its selected value.
  function drawHeatmap(parent) {
    const c = results[state.column], xa = axes[state.x], ya = axes[state.y];
    const fixedAxes = axes.map((_, i) => i).filter((i) => i !== state.x && i !== state.y);
    const cells = [], crossed = [];
    for (let p = 0; p < sweep.points; ++p) {
      if (!fixedAxes.every((i) => axes[i].index[p] === state.fixed[i])) continue;
      const at = [xa.index[p], ya.index[p]];
      if (sweep.status[p] !== 'ok') crossed.push({ value: at, name: String(p) });
      else if (c.values[p] !== null) cells.push({ value: at.concat([c.values[p]]), name: String(p) });
    }
    const all = c.values.filter((v) => v !== null);
    const min = all.length ? Math.min(...all) : 0, max = all.length ? Math.max(...all) : 1;
    const categories = (a) => a.values.map((_, k) => valueText(a, k));
    const crossedCell = (params, api) => {
      const centre = api.coord([api.value(0), api.value(1)]);
      const size = api.size([1, 1]);
      const p = Number(crossed[params.dataIndex].name);
      return {
        type: 'group',
        children: [
          { type: 'rect', shape: { x: centre[0] - size[0] / 2 + 1, y: centre[1] - size[1] / 2 + 1,
            width: size[0] - 2, height: size[1] - 2 }, style: { fill: '#fdecea', stroke: failedColour, lineWidth: 2 } },
          { type: 'text', style: { text: '✕ ' + sweep.status[p], x: centre[0], y: centre[1], align: 'center',
            verticalAlign: 'middle', fill: failedColour, font: '600 12px system-ui, sans-serif' } },
        ],
      };
    };
    const instance = makeChart(report, parent, 'sweep-heatmap', 0, Math.max(320, 60 * ya.values.length + 120), {
      tooltip: Object.assign({}, tooltip, {
        formatter: (q) => {
          const p = Number(q.name);
          return escapeHtml(pointText(p)) + '<br>' + escapeHtml(c.name + ': ' +
            (sweep.status[p] !== 'ok' ? failureText(p) : formatValue(c.values[p], c.unit)));
        },
      }),
      grid: { left: 110, right: 130, top: 20, bottom: 60 },
      xAxis: Object.assign({ type: 'category', data: categories(xa), splitArea: { show: true } }, axisName(xa.name, 32)),
      yAxis: Object.assign({ type: 'category', data: categories(ya), splitArea: { show: true } }, axisName(ya.name, 90)),
      visualMap: {
        type: 'continuous', min, max: max > min ? max : min + 1, calculable: true, orient: 'vertical', right: 10,
        top: 'middle', seriesIndex: 0, inRange: { color: heatColours }, formatter: (v) => formatValue(v, c.unit),
      },
      series: [
        { type: 'heatmap', data: cells, label: { show: cells.length <= 64, fontSize: 11,
          formatter: (q) => formatValue(q.value[2], c.unit) }, emphasis: { itemStyle: { borderColor: '#1f2933', borderWidth: 1 } } },
        { type: 'custom', data: crossed, renderItem: crossedCell, encode: { x: 0, y: 1 }, z: 3 },
      ],
    });
    Object.assign(report.charts[report.charts.length - 1], {
      cells: cells.length + crossed.length, failed: crossed.length, failedCell: crossed.length ? crossed[0].value : null,
    });
    return instance;
  }

  // ---------------------------------------------------------------- the panel

  function drawPanel() {
    const section = element('section');
    section.appendChild(element('h2', '', 'Sweep results'));
    section.appendChild(element('p', 'explain', 'Choose a result column and the axis (or two, for a heatmap) to ' +
      'draw it against. Lines: one per combination of the other axes (click a legend entry to hide it). Heatmap: ' +
      'the other axes are fixed by their selectors; the colour scale spans the column over the whole sweep. ' +
      'Failed points are marked in red, with their error on hover; they are never drawn as values.'));
    const controls = element('div', 'controls');
    const fixedBox = element('span', 'controls');
    const notesBox = element('div');
    const chartBox = element('div');
    section.append(controls, notesBox, chartBox);
    main.appendChild(section);

    const axisOptions = axes.map((a, i) => [i, a.name]);
    const columnOptions = results.map((c, i) => [i, c.name + (hasValues(c) ? '' : ' (no values)')]);
    const viewOptions = [['lines', 'lines against one axis']].concat(axes.length > 1 ? [['heatmap', 'heatmap over two axes']] : []);
    let ySelect;
    const render = () => {
      for (const c of report.charts.splice(0)) c.instance.dispose();
      chartBox.replaceChildren();
      notesBox.replaceChildren();
      fixedBox.replaceChildren();
      ySelect.style.display = state.view === 'heatmap' ? '' : 'none';
      const notes = [];
      if (!hasValues(results[state.column])) notes.push('No ok point has a value of ' + results[state.column].name + '.');
      if (state.view === 'heatmap') {
        axes.forEach((a, i) => {
          if (i === state.x || i === state.y) return;
          fixedBox.appendChild(select('sweep-fix-' + i, a.name, a.values.map((_, k) => [k, valueText(a, k)]),
            state.fixed[i], (v) => { state.fixed[i] = Number(v); render(); }));
        });
        drawHeatmap(chartBox);
      } else {
        drawLines(chartBox, notes);
      }
      for (const n of notes) notesBox.appendChild(element('p', 'note', n));
      updateBest();
    };
    controls.appendChild(select('sweep-column', 'Result', columnOptions, state.column,
      (v) => { state.column = Number(v); render(); }));
    controls.appendChild(select('sweep-view', 'View', viewOptions, state.view, (v) => { state.view = v; render(); }));
    controls.appendChild(select('sweep-x', 'x axis', axisOptions, state.x, (v) => {
      state.x = Number(v);
      if (state.x === state.y) state.y = axes.findIndex((_, i) => i !== state.x);
      document.getElementById('sweep-y').value = String(state.y);
      render();
    }));
    ySelect = select('sweep-y', 'y axis', axisOptions, state.y === null ? 0 : state.y, (v) => {
      state.y = Number(v);
      if (state.x === state.y) state.x = axes.findIndex((_, i) => i !== state.y);
      document.getElementById('sweep-x').value = String(state.x);
      render();
    });
    controls.appendChild(ySelect);
    controls.appendChild(fixedBox);
    render();
  }

  document.getElementById('subtitle').textContent = integer.format(sweep.points) + ' points over ' +
    axes.map((a) => a.name).join(' × ') + ' (' + sweep.file + ')';
  drawSummary();
  drawPanel();
  drawFailures();
  window.addEventListener('resize', () => report.charts.forEach((c) => c.instance.resize()));
  report.ready = true;
})();
