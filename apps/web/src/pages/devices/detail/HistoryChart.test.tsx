import { render, screen } from '@testing-library/react';
import { getInstanceByDom } from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { HistoryChart } from './HistoryChart';

/*
 * ECharts writes a tooltip formatter's answer into the page as HTML; sensor names and units are
 * typed by users (issue 13), so the chart must hand it escaped text only.
 */

const HOSTILE_NAME = '<img src=x onerror="alert(1)">Fridge & co';
const HOSTILE_UNIT = '°C<script>alert(2)</script>';

type Formatter = (params: unknown) => string;

describe('history chart tooltip', () => {
  it('shows the sensor name and unit as text, never as markup', () => {
    const start = Date.UTC(2025, 5, 1);
    render(
      <HistoryChart
        range={{ start, end: start + 3_600_000 }}
        data={[[start + 60_000, 4.5]]}
        seriesName={HOSTILE_NAME}
        unit={HOSTILE_UNIT}
        onZoom={() => {}}
        onWidth={() => {}}
        zoomResetKey=""
      />,
    );
    const chart = getInstanceByDom(screen.getByTestId('history-chart-canvas'));
    const option = chart?.getOption() as { tooltip: Array<{ formatter: Formatter }> };
    const html = option.tooltip[0]!.formatter([{ value: [start + 60_000, 4.5] }]);

    // Parsed the way the tooltip is, the name and unit come back as plain text.
    const box = document.createElement('div');
    box.innerHTML = html;
    expect(box.querySelector('img, script')).toBeNull();
    expect(box.textContent).toContain(`${HOSTILE_NAME}: 4.5 ${HOSTILE_UNIT}`);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Fridge &amp; co');
  });
});
