import { PrinterOutlined } from '@ant-design/icons';
import { Button, Card, Flex, QRCode, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { equipmentDetailLink } from '../paths';
import type { Equipment } from '../types';
import './label.css';

/**
 * A label to stick on the equipment: its name, serial and a QR code that opens this detail page,
 * for patrols and audits on site. Printing shows the label alone (label.css).
 */
export function LabelCard({ equipment }: { equipment: Equipment }) {
  const { t } = useTranslation();
  const link = equipmentDetailLink(equipment.id);
  return (
    <Card
      title={t('equipment.label.title')}
      extra={
        <Button
          size="small"
          icon={<PrinterOutlined />}
          onClick={() => window.print()}
          data-testid="label-print"
        >
          {t('equipment.label.print')}
        </Button>
      }
    >
      <Flex className="equipment-label" gap="middle" align="center" wrap data-testid="equipment-label">
        {/* SVG keeps the code sharp at any print size. */}
        <QRCode type="svg" value={link} size={132} bordered={false} data-testid="label-qr" />
        <Flex vertical>
          <Typography.Text strong>{equipment.name}</Typography.Text>
          <Typography.Text>{equipment.serial}</Typography.Text>
          <Typography.Text type="secondary">{equipment.typeName ?? ''}</Typography.Text>
          <Typography.Text type="secondary" className="equipment-label-hint">
            {t('equipment.label.hint')}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
