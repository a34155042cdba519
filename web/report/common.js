// simfab's HTML report: what the page scripts share (report.js for runs, sweep.js for a sweep).
// Inlined before the page script; it defines window.simfabCommon and draws nothing itself:
//   integer, decimal         number formats (whole numbers; 4 significant digits)
//   unitFor(ps)              the time unit {name, ps} in which a duration of `ps` is >= 1
//   formatTime(ps), formatBytes(bytes), formatEnergy(joules), formatPercent(fraction)
//                            "20.33 ms", "40 MiB", "1.2 kJ", "45 %" ("–" for a missing value)
//   element(tag, className, text)   a new DOM element
//   escapeHtml(text)         text made safe inside the HTML of a chart's tooltip
//   axisName(name, gap)      an ECharts axis name, centred along the axis, in the muted colour
//   makeChart(registry, parent, kind, run, height, option)
//                            an ECharts instance in a new .chart container of `height` pixels,
//                            registered in registry.charts ({id, kind, run, instance}) for the tests
'use strict';

window.simfabCommon = (function () {
  const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });

  const timeUnits = [['ps', 1], ['ns', 1e3], ['µs', 1e6], ['ms', 1e9], ['s', 1e12]];
  function unitFor(ps) {
    let unit = timeUnits[0];
    for (const u of timeUnits) if (ps >= u[1]) unit = u;
    return { name: unit[0], ps: unit[1] };
  }

  function formatTime(ps) {
    if (ps === null || ps === undefined) return '–';
    const u = unitFor(Math.abs(ps));
    return decimal.format(ps / u.ps) + ' ' + u.name;
  }
  function formatBytes(bytes) {
    if (bytes === null || bytes === undefined) return '–';
    const prefixes = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let i = 0;
    while (Math.abs(bytes) >= 1024 && i < prefixes.length - 1) {
      bytes /= 1024;
      ++i;
    }
    return (i === 0 ? integer.format(bytes) : decimal.format(bytes)) + ' ' + prefixes[i];
  }
  function formatEnergy(joules) {
    if (joules === null || joules === undefined) return '–';
    if (Math.abs(joules) >= 1e6) return decimal.format(joules / 1e6) + ' MJ';
    if (Math.abs(joules) >= 1e3) return decimal.format(joules / 1e3) + ' kJ';
    return decimal.format(joules) + ' J';
  }
  function formatPercent(fraction) {
    return decimal.format(fraction * 100) + ' %';
  }

  function element(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function escapeHtml(text) {
    const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
    return String(text).replace(/[&<>"']/g, (c) => entities[c]);
  }

  function axisName(name, gap) {
    return { name, nameLocation: 'middle', nameGap: gap, nameTextStyle: { color: '#52606d', fontSize: 12 } };
  }

  function makeChart(registry, parent, kind, run, height, option) {
    const div = element('div', 'chart');
    div.style.height = height + 'px';
    div.dataset.kind = kind;
    div.dataset.run = String(run);
    parent.appendChild(div);
    const instance = echarts.init(div, null, { renderer: 'canvas' });
    instance.setOption(Object.assign({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' } }, option));
    registry.charts.push({ id: kind + '-' + run, kind, run, instance });
    return instance;
  }

  return { integer, decimal, unitFor, formatTime, formatBytes, formatEnergy, formatPercent, element, escapeHtml, axisName,
    makeChart };
})();
