import { Alert, Card, Descriptions, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useClientConfig, useHasAuthTag } from '../../session/queries';
import { StateTag } from '../devices/components/StateTag';
import { DevicePagePending, DevicePageTitle } from '../devices/DevicePageFrame';
import { ResetKeyButton } from '../devices/detail/ResetKeyButton';
import { detailUrl } from '../devices/paths';
import { useDeviceDetail } from '../devices/queries';
import { CopyButton } from './CopyButton';
import { curlExample, endpointsFrom, eventExample, topicsFor, upExample } from './connection';

/** A value in code style with a copy button. */
function Copyable({ value, testId }: { value: string; testId: string }) {
  return (
    <Flex gap={4} align="center" wrap>
      <Typography.Text code data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value}
      </Typography.Text>
      <CopyButton text={value} testId={`${testId}-copy`} />
    </Flex>
  );
}

function Example({ title, text, testId }: { title: ReactNode; text: string; testId: string }) {
  return (
    <div>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{title}</Typography.Text>
        <CopyButton text={text} testId={`${testId}-copy`} />
      </Flex>
      <pre
        data-testid={testId}
        style={{ background: '#f5f5f5', padding: 12, borderRadius: 6, overflowX: 'auto' }}
      >
        {text}
      </pre>
    </div>
  );
}

/**
 * How to connect one device (`?id=`): broker and topics, HTTP endpoint, its credentials (the key
 * can be reset and is then shown once) and payload examples of device protocol v1.
 */
export default function OpenInterfacePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  const detail = useDeviceDetail(id);
  const config = useClientConfig().data;
  const canEdit = useHasAuthTag('device:edit');
  const device = detail.data;

  if (!id || detail.isError || !device) {
    return (
      <DevicePagePending
        menu="openInterface"
        id={id}
        failed={detail.isError}
        device={device}
        noDevice={t('map.openInterface.noDevice')}
        notFound={t('map.openInterface.notFound')}
        testId="open-interface-empty"
      />
    );
  }

  const endpoints = endpointsFrom(config);
  const topics = topicsFor(device.serial);
  // A fixed instant per device so the examples do not change on every refetch.
  const now = device.lastSeenTime ?? device.expireTime;
  const up = upExample(device, now);

  return (
    <Flex vertical gap="middle">
      <DevicePageTitle menu="openInterface" device={device} />
      <Card
        title={
          <Flex gap="small" align="center">
            <span>{device.name}</span>
            <StateTag state={device.state} lastSeenTime={device.lastSeenTime} />
          </Flex>
        }
        extra={<Link to={detailUrl(device.id)}>{t('map.openInterface.backToDetail')}</Link>}
      >
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('map.openInterface.serial')}>
            <Copyable value={device.serial} testId="oi-serial" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.key')}>
            <Flex vertical gap="small">
              <Alert type="info" showIcon title={t('map.openInterface.keyHint')} />
              {canEdit && (
                <div>
                  <ResetKeyButton deviceId={device.id} />
                </div>
              )}
            </Flex>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('map.openInterface.mqtt')}>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('map.openInterface.broker')}>
            <Copyable value={endpoints.mqtt} testId="oi-mqtt-url" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.topicUp')}>
            <Copyable value={topics.up} testId="oi-topic-up" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.topicEvent')}>
            <Copyable value={topics.event} testId="oi-topic-event" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.topicDown')}>
            <Copyable value={topics.down} testId="oi-topic-down" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.topicAck')}>
            <Copyable value={topics.ack} testId="oi-topic-ack" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.topicError')}>
            <Copyable value={topics.error} testId="oi-topic-error" />
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('map.openInterface.http')}>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('map.openInterface.endpoint')}>
            <Copyable value={`POST ${endpoints.http}`} testId="oi-http-url" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.eventEndpoint')}>
            <Copyable value={`POST ${endpoints.httpEvent}`} testId="oi-http-event-url" />
          </Descriptions.Item>
          <Descriptions.Item label={t('map.openInterface.auth')}>
            <Typography.Text code data-testid="oi-http-auth">
              {`Authorization: Basic base64(${device.serial}:<device key>)`}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('map.openInterface.payloads')}>
        <Flex vertical gap="small">
          <Example title={t('map.openInterface.upExample')} text={up} testId="oi-example-up" />
          <Example
            title={t('map.openInterface.eventExample')}
            text={eventExample(now)}
            testId="oi-example-event"
          />
          <Example
            title={t('map.openInterface.httpExample')}
            text={curlExample(endpoints.http, device.serial, up)}
            testId="oi-example-curl"
          />
          <Typography.Text type="secondary">{t('map.openInterface.docs')}</Typography.Text>
        </Flex>
      </Card>
    </Flex>
  );
}
