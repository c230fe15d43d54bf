import { Button } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A drawn signature (pointer: finger, pen or mouse) on a canvas; `onChange` gets a PNG data URL
 * after each stroke, or null when cleared. What the server keeps with a link receipt.
 */
export function SignaturePad({ onChange }: { onChange: (png: string | null) => void }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const at = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const scale = e.currentTarget.width / box.width;
    return { x: (e.clientX - box.left) * scale, y: (e.clientY - box.top) * scale };
  };
  const start = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const context = e.currentTarget.getContext('2d');
    if (!context) return;
    drawing.current = true;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const p = at(e);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.strokeStyle = '#10239e';
    context.beginPath();
    context.moveTo(p.x, p.y);
  };
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const context = e.currentTarget.getContext('2d');
    const p = at(e);
    context?.lineTo(p.x, p.y);
    context?.stroke();
  };
  const end = () => {
    if (!drawing.current) return;
    drawing.current = false;
    onChange(canvas.current?.toDataURL('image/png') ?? null);
  };
  const clear = () => {
    const c = canvas.current;
    c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    onChange(null);
  };
  return (
    <div>
      <canvas
        ref={canvas}
        width={600}
        height={180}
        aria-label={t('logistics.receipt.drawHere')}
        role="img"
        data-testid="receipt-signature"
        style={{
          width: '100%',
          maxWidth: 600,
          height: 'auto',
          border: '1px dashed #8c8c8c',
          touchAction: 'none',
          background: '#fff',
        }}
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerLeave={end}
      />
      <Button size="small" onClick={clear}>
        {t('logistics.receipt.clear')}
      </Button>
    </div>
  );
}
