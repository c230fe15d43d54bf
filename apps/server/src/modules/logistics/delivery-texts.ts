import type { WireLanguage } from '@coldchain/contract';

/** The receipt link's message, in the language the dispatcher chose for the receiver. */
export const linkTexts: Record<
  WireLanguage,
  {
    subject: (orderNo: string) => string;
    body: (orderNo: string, sender: string, url: string, expires: string) => string;
  }
> = {
  en: {
    subject: (orderNo) => `Shipment ${orderNo}: temperature record and receipt`,
    body: (orderNo, sender, url, expires) =>
      `Shipment ${orderNo} from ${sender} is on its way to you. Check its temperature record and confirm receipt here: ${url} (valid until ${expires} UTC).`,
  },
  cn: {
    subject: (orderNo) => `运单 ${orderNo}：温度记录与签收`,
    body: (orderNo, sender, url, expires) =>
      `来自 ${sender} 的运单 ${orderNo} 正在发往您处。请在此查看温度记录并签收：${url}（有效期至 UTC ${expires}）。`,
  },
};

/** Every label the delivery note prints (PDF and xlsx). */
export interface NoteTexts {
  title: string;
  orderNo: string;
  state: string;
  states: Record<number, string>;
  printed: string;
  consignment: string;
  goods: string;
  quantity: string;
  batch: string;
  range: string;
  humidityRange: string;
  sender: string;
  senderCompany: string;
  receiver: string;
  receiverCompany: string;
  contact: string;
  phone: string;
  address: string;
  carrier: string;
  vehicle: string;
  handover: string;
  plannedDeparture: string;
  departure: string;
  plannedArrival: string;
  arrival: string;
  received: string;
  summary: string;
  min: string;
  max: string;
  mkt: string;
  minutesOut: string;
  excursions: string;
  gaps: string;
  readingCount: string;
  chart: (serial: string, channel: number) => string;
  excursionTable: string;
  gapTable: string;
  start: string;
  end: string;
  peak: string;
  monitor: string;
  channel: string;
  time: string;
  value: string;
  readingsTable: string;
  decision: string;
  accepted: string;
  rejected: string;
  pending: string;
  signedBy: string;
  method: string;
  password: string;
  account: string;
  drawn: string;
  remarks: string;
  photo: string;
  drawnSignature: string;
  unprintable: string;
  manifestation: (name: string, time: string, method: string) => string;
  none: string;
}

export const noteTexts: Record<WireLanguage, NoteTexts> = {
  en: {
    title: 'Delivery note',
    orderNo: 'Order no.',
    state: 'State',
    states: { 1: 'Created', 2: 'In transit', 3: 'Arrived', 4: 'Received', 5: 'Rejected', 6: 'Cancelled' },
    printed: 'Printed',
    consignment: 'Consignment',
    goods: 'Goods',
    quantity: 'Quantity',
    batch: 'Batch / lot',
    range: 'Allowed temperature',
    humidityRange: 'Allowed humidity',
    sender: 'Sender',
    senderCompany: 'Sending company',
    receiver: 'Receiver',
    receiverCompany: 'Receiving company',
    contact: 'Contact',
    phone: 'Phone',
    address: 'Address',
    carrier: 'Carrier',
    vehicle: 'Vehicle',
    handover: 'Handover times',
    plannedDeparture: 'Planned departure',
    departure: 'Departure',
    plannedArrival: 'Planned arrival',
    arrival: 'Arrival',
    received: 'Receipt',
    summary: 'Temperature during the trip',
    min: 'Minimum',
    max: 'Maximum',
    mkt: 'Mean kinetic temperature',
    minutesOut: 'Minutes out of range',
    excursions: 'Excursions',
    gaps: 'Gaps in the record',
    readingCount: 'Readings',
    chart: (serial, channel) => `Temperature of ${serial}, channel ${channel}`,
    excursionTable: 'Excursions',
    gapTable: 'Gaps in the record',
    start: 'Start',
    end: 'End',
    peak: 'Peak',
    monitor: 'Monitor',
    channel: 'Channel',
    time: 'Time',
    value: 'Value',
    readingsTable: 'Readings',
    decision: "Receiver's decision",
    accepted: 'Accepted',
    rejected: 'Rejected',
    pending: 'Not received yet',
    signedBy: 'Signed by',
    method: 'Signature',
    password: 'signature password on the platform',
    account: 'signed-in member on the platform',
    drawn: 'name and drawn signature (receipt link)',
    remarks: 'Remarks',
    photo: 'Photo of the goods',
    drawnSignature: 'Signature',
    unprintable: 'This picture cannot be printed; it is kept with the online record.',
    manifestation: (name, time, method) =>
      `Electronically signed by ${name} at ${time} by ${method}. Meaning: receipt of this shipment at the door.`,
    none: 'None',
  },
  cn: {
    title: '送货单',
    orderNo: '运单号',
    state: '状态',
    states: { 1: '已创建', 2: '运输中', 3: '已到达', 4: '已签收', 5: '已拒收', 6: '已取消' },
    printed: '打印时间',
    consignment: '货物',
    goods: '货物名称',
    quantity: '数量',
    batch: '批号',
    range: '允许温度',
    humidityRange: '允许湿度',
    sender: '发货方',
    senderCompany: '发货企业',
    receiver: '收货方',
    receiverCompany: '收货企业',
    contact: '联系人',
    phone: '电话',
    address: '地址',
    carrier: '承运商',
    vehicle: '车辆',
    handover: '交接时间',
    plannedDeparture: '计划发车',
    departure: '发车',
    plannedArrival: '计划到达',
    arrival: '到达',
    received: '签收',
    summary: '运输途中的温度',
    min: '最低',
    max: '最高',
    mkt: '平均动力学温度',
    minutesOut: '超限分钟数',
    excursions: '超限次数',
    gaps: '记录中断',
    readingCount: '读数',
    chart: (serial, channel) => `${serial} 通道 ${channel} 的温度`,
    excursionTable: '超限记录',
    gapTable: '记录中断',
    start: '开始',
    end: '结束',
    peak: '峰值',
    monitor: '监测设备',
    channel: '通道',
    time: '时间',
    value: '数值',
    readingsTable: '读数',
    decision: '收货方决定',
    accepted: '接收',
    rejected: '拒收',
    pending: '尚未签收',
    signedBy: '签名人',
    method: '签名方式',
    password: '平台签名密码',
    account: '平台登录账号',
    drawn: '姓名与手写签名（签收链接）',
    remarks: '备注',
    photo: '货物照片',
    drawnSignature: '签名',
    unprintable: '此图片无法打印，已随在线记录保存。',
    manifestation: (name, time, method) =>
      `${name} 于 ${time} 以${method}电子签名。含义：在门口签收本批货物。`,
    none: '无',
  },
};
