import type { ChartStatistics } from '@coldchain/contract';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsType, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what a bar chart needs; SVG like the monitor history chart (also works in jsdom).
use([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const HEIGHT = 280;
/** Used when the element has no width yet (hidden tab, tests). */
const FALLBACK_WIDTH = 640;

interface Props {
  days: ChartStatistics['days'];
  labels: { alarms: string; resolved: string };
  /** Read by screen readers: the chart itself is a picture. */
  summary: string;
}

/** Bars of alarms raised and resolved per day; the axis shows month-day. */
export default function AlarmChart({ days, labels, summary }: Props) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const sized = el.clientWidth > 0;
    const instance = init(el, null, {
      renderer: 'svg',
      ...(sized ? {} : { width: FALLBACK_WIDTH, height: HEIGHT }),
    });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({
      animation: false,
      grid: { left: 40, right: 16, top: 40, bottom: 32 },
      legend: { top: 0 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          type: 'bar',
          name: labels.alarms,
          data: days.map((d) => d.alarms),
          itemStyle: { color: '#ff4d4f' },
        },
        {
          type: 'bar',
          name: labels.resolved,
          data: days.map((d) => d.resolved),
          itemStyle: { color: '#52c41a' },
        },
      ],
    });
  }, [days, labels.alarms, labels.resolved]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={summary}
      style={{ width: '100%', height: HEIGHT }}
      data-testid="home-alarm-chart-canvas"
    />
  );
}
