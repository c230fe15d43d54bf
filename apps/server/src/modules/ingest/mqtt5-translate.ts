import type { Packet } from 'mqtt-packet';

/**
 * Aedes speaks MQTT 3.1.1 only. What a device does over MQTT 5 (connect, publish at QoS 0-2,
 * subscribe to its down and error topics, ping, disconnect) means the same in 3.1.1 once the
 * MQTT 5 properties are set aside, so the connection front (mqtt-front.ts) translates each
 * packet. The server answers with MQTT 5 reason codes; what it cannot honour it says in CONNACK
 * (no topic aliases, its packet size limit).
 */

/** MQTT 3.1.1 CONNACK return code -> MQTT 5 reason code. */
const CONNACK_REASON: Record<number, number> = {
  0: 0x00,
  1: 0x84, // unsupported protocol version
  2: 0x85, // client identifier not valid
  3: 0x88, // server unavailable
  4: 0x86, // bad user name or password
  5: 0x87, // not authorized
};

/** What the device side of one MQTT 5 connection must remember between packets. */
export class Mqtt5Session {
  /** Topics per UNSUBSCRIBE, for the reason code per topic MQTT 5's UNSUBACK carries. */
  private readonly unsubscribing = new Map<number, number>();

  constructor(private readonly maxPacketBytes: number | undefined) {}

  /**
   * A device's MQTT 5 packet as MQTT 3.1.1 for Aedes; a string when the device did something
   * 3.1.1 cannot say (the reason the connection is closed with).
   */
  toBroker(packet: Packet): Packet | string {
    switch (packet.cmd) {
      case 'connect':
        return {
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clientId: packet.clientId,
          clean: packet.clean ?? true,
          keepalive: packet.keepalive ?? 0,
          ...(packet.username !== undefined ? { username: packet.username } : {}),
          ...(packet.password !== undefined ? { password: packet.password } : {}),
          ...(packet.will
            ? {
                will: {
                  topic: packet.will.topic,
                  payload: packet.will.payload,
                  qos: packet.will.qos ?? 0,
                  retain: packet.will.retain ?? false,
                },
              }
            : {}),
        };
      case 'publish':
        // The CONNACK allowed no topic aliases (its Topic Alias Maximum is 0).
        if (packet.properties?.topicAlias !== undefined)
          return 'topic alias not allowed (Topic Alias Maximum 0)';
        return {
          cmd: 'publish',
          topic: packet.topic,
          payload: packet.payload,
          qos: packet.qos,
          dup: packet.dup,
          retain: packet.retain,
          ...(packet.qos > 0 ? { messageId: packet.messageId } : {}),
        };
      case 'puback':
      case 'pubrec':
      case 'pubrel':
      case 'pubcomp':
        return { cmd: packet.cmd, messageId: packet.messageId } as Packet;
      case 'subscribe':
        return {
          cmd: 'subscribe',
          messageId: packet.messageId,
          subscriptions: packet.subscriptions.map((s) => ({ topic: s.topic, qos: s.qos })),
        };
      case 'unsubscribe':
        this.unsubscribing.set(packet.messageId!, packet.unsubscriptions.length);
        return { cmd: 'unsubscribe', messageId: packet.messageId, unsubscriptions: packet.unsubscriptions };
      case 'pingreq':
        return { cmd: 'pingreq' };
      case 'disconnect':
        // 0x04 "disconnect with will message" has no 3.1.1 packet: closing without DISCONNECT
        // publishes the will there too.
        return packet.reasonCode === 0x04 ? 'disconnect with will' : { cmd: 'disconnect' };
      default:
        return `${packet.cmd} is not supported`;
    }
  }

  /** Aedes' MQTT 3.1.1 packet as MQTT 5 for the device. */
  toDevice(packet: Packet): Packet {
    switch (packet.cmd) {
      case 'connack':
        return {
          cmd: 'connack',
          sessionPresent: packet.sessionPresent,
          reasonCode: CONNACK_REASON[packet.returnCode ?? 0] ?? 0x80,
          properties: {
            topicAliasMaximum: 0,
            sharedSubscriptionAvailable: false,
            ...(this.maxPacketBytes !== undefined ? { maximumPacketSize: this.maxPacketBytes } : {}),
          },
        };
      case 'suback':
        // 128 is 3.1.1's refusal; the device asked for a topic that is not its own.
        return {
          cmd: 'suback',
          messageId: packet.messageId,
          granted: (packet.granted as number[]).map((qos) => (qos === 128 ? 0x87 : qos)),
        };
      case 'unsuback': {
        const topics = this.unsubscribing.get(packet.messageId!) ?? 1;
        this.unsubscribing.delete(packet.messageId!);
        return { cmd: 'unsuback', messageId: packet.messageId, granted: new Array(topics).fill(0) };
      }
      case 'puback':
      case 'pubrec':
      case 'pubrel':
      case 'pubcomp':
        return { cmd: packet.cmd, messageId: packet.messageId, reasonCode: 0 } as Packet;
      default:
        // publish, pingresp: the same fields in both versions.
        return packet;
    }
  }
}
