import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsCoreOption, type EChartsType, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what bar charts need; SVG like the home and history charts (it also draws in jsdom).
use([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** Used when the element has no width yet (hidden tab, tests). */
const FALLBACK_WIDTH = 640;

interface Props {
  option: EChartsCoreOption;
  height: number;
  /** Read by screen readers: the chart itself is a picture. */
  summary: string;
  testId: string;
  /** The drawn chart, for the card's PNG export; null once it is gone. */
  onInstance?: (instance: EChartsType | null) => void;
}

/** One ECharts chart, loaded with its page's first chart (never in the entry bundle). */
export default function StatisticsChart({ option, height, summary, testId, onInstance }: Props) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const sized = el.clientWidth > 0;
    const instance = init(el, null, { renderer: 'svg', ...(sized ? {} : { width: FALLBACK_WIDTH, height }) });
    chart.current = instance;
    onInstance?.(instance);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      onInstance?.(null);
      instance.dispose();
      chart.current = null;
    };
  }, [height, onInstance]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={summary}
      style={{ width: '100%', height }}
      data-testid={testId}
    />
  );
}
