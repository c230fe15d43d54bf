import type { EChartsType } from 'echarts/core';

/**
 * The chart as a PNG file. The charts draw SVG (sharp at any size, and drawable in tests), so the
 * SVG ECharts hands out is painted onto a canvas at twice its size on white, then encoded as PNG.
 */
export async function chartPng(chart: EChartsType): Promise<Blob> {
  const url = chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
  if (url.startsWith('data:image/png')) return (await fetch(url)).blob();
  const width = chart.getWidth();
  const height = chart.getHeight();
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no image'))), 'image/png'),
  );
}
