import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, TooltipComponent } from 'echarts/components';
import { type EChartsType, format, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { formatTime, formatValue } from '../format';
import { FALLBACK_WIDTH, type TimeWindow, type toSeriesData } from './history-model';

// Only what a zoomable line chart needs, so the console bundle stays small. SVG keeps memory
// low for a few thousand points and also works where canvas does not (jsdom).
use([LineChart, GridComponent, TooltipComponent, DataZoomComponent, SVGRenderer]);

const HEIGHT = 320;
/** Slider drags fire many events; the server is asked once the hand rests. */
export const ZOOM_DEBOUNCE_MS = 300;

interface Props {
  range: TimeWindow;
  data: ReturnType<typeof toSeriesData>;
  seriesName: string;
  unit: string;
  /** Zoom percentages 0-100 of `range`, reported after the debounce. */
  onZoom: (startPercent: number, endPercent: number) => void;
  onWidth: (width: number) => void;
  /** A new value (another preset or sensor) puts the zoom back to the whole range. */
  zoomResetKey: string;
}

interface ZoomOption {
  dataZoom?: Array<{ start?: number; end?: number }>;
}

/**
 * The tooltip of the point under the pointer. ECharts puts a formatter's answer into the page as
 * HTML, and the sensor name and unit are typed by users, so every piece of text is escaped.
 */
export function historyTooltip(params: unknown, seriesName: string, unit: string): string {
  const first = (params as Array<{ value: [number, number | null] }>)[0];
  if (!first) return '';
  const text = `${seriesName}: ${formatValue(first.value[1], unit)}`;
  return `${format.encodeHTML(formatTime(first.value[0]))}<br/>${format.encodeHTML(text)}`;
}

/** The ECharts line of one sensor with a slider and wheel/drag zoom over the whole range. */
export function HistoryChart({ range, data, seriesName, unit, onZoom, onWidth, zoomResetKey }: Props) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const callbacks = useRef({ onZoom, onWidth });
  callbacks.current = { onZoom, onWidth };

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const sized = el.clientWidth > 0;
    const instance = init(el, null, {
      renderer: 'svg',
      ...(sized ? {} : { width: FALLBACK_WIDTH, height: HEIGHT }),
    });
    chart.current = instance;
    let zoomTimer: ReturnType<typeof setTimeout> | undefined;
    instance.on('datazoom', () => {
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(() => {
        const zoom = (instance.getOption() as ZoomOption).dataZoom?.[0];
        callbacks.current.onZoom(zoom?.start ?? 0, zoom?.end ?? 100);
      }, ZOOM_DEBOUNCE_MS);
    });
    callbacks.current.onWidth(instance.getWidth());
    const observer = new ResizeObserver(() => {
      instance.resize();
      callbacks.current.onWidth(instance.getWidth());
    });
    observer.observe(el);
    return () => {
      clearTimeout(zoomTimer);
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  // The axis spans the whole preset range so the slider always shows where the window sits.
  useEffect(() => {
    chart.current?.setOption({
      animation: false,
      grid: { left: 56, right: 24, top: 32, bottom: 72 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'line' },
        formatter: (params: unknown) => historyTooltip(params, seriesName, unit),
      },
      xAxis: { type: 'time', min: range.start, max: range.end },
      yAxis: { type: 'value', scale: true, name: unit },
      dataZoom: [
        { type: 'inside', filterMode: 'none' },
        { type: 'slider', filterMode: 'none', labelFormatter: (v: number) => formatTime(v) },
      ],
    });
  }, [range.start, range.end, seriesName, unit]);

  useEffect(() => {
    if (zoomResetKey) chart.current?.dispatchAction({ type: 'dataZoom', start: 0, end: 100 });
  }, [zoomResetKey]);

  useEffect(() => {
    chart.current?.setOption({
      series: [
        {
          type: 'line',
          name: seriesName,
          data,
          showSymbol: false,
          connectNulls: false,
          lineStyle: { width: 1.5 },
        },
      ],
    });
  }, [data, seriesName]);

  return <div ref={element} style={{ width: '100%', height: HEIGHT }} data-testid="history-chart-canvas" />;
}
