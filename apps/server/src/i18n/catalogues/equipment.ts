import type { Catalogue, LabelCatalogue } from './types';

/** Messages of cold-chain equipment, in English and Simplified Chinese (keys are AppError codes). */
export const equipmentMessages = {
  'rule.attributeId': {
    en: '{field} is not an attribute id of this server',
    cn: '{field}不是有效的属性编号',
  },
  'rule.lengthRange': {
    en: '{field}: the minimum length must not exceed the maximum (both within 4-10)',
    cn: '{field}：最小长度不能大于最大长度（均在 4-10 之间）',
  },
  'rule.numberRange': { en: '{field} must not exceed the maximum', cn: '{field}不能大于最大值' },
  'rule.choiceOptions': {
    en: '{field}: a choice needs at least one option',
    cn: '{field}：选项至少需要一个',
  },
  'rule.choiceOptionsDistinct': { en: '{field} must not repeat an option', cn: '{field}不能有重复的选项' },
  'rule.typeCode': { en: '{field} must be 1-10 digits', cn: '{field}须为 1-10 位数字' },
  'rule.attributeCap': {
    en: '{field}: at most 20 attributes per equipment type',
    cn: '{field}：每个设备类型最多 20 个属性',
  },
  'rule.excursionLimit': {
    en: '{field}: give a lower or an upper limit for the excursion budget',
    cn: '{field}：超标预算需设置下限或上限',
  },
  'rule.serialSuffix': { en: '{field} must be exactly 4 digits', cn: '{field}须为 4 位数字' },
  'rule.useState': {
    en: '{field} must be 1 (in use), 2 (under service) or 4 (standby); disposal is a scrap record',
    cn: '{field}须为 1（在用）、2（维修保养中）或 4（备用）；报废请添加报废记录',
  },
  'rule.repairTimeRequired': {
    en: '{field} is required when the fault was repaired',
    cn: '已修复时{field}必填',
  },
  'rule.repairAfterFault': { en: '{field} must not be before the fault time', cn: '{field}不能早于故障时间' },
  'rule.endAfterStart': { en: '{field} must be after the start time', cn: '{field}必须晚于开始时间' },
  'rule.patrolInterval': {
    en: '{field}: the patrol interval must be more than 6 hours',
    cn: '{field}：巡检间隔必须大于 6 小时',
  },
  'rule.patrolTarget': {
    en: '{field}: a patrol plan is for one equipment or one group',
    cn: '{field}：巡检计划须指定一台设备或一个分组',
  },
  'rule.customPeriod': {
    en: '{field}: a custom period needs a start and an end time',
    cn: '{field}：自定义时段需要开始和结束时间',
  },
  EQUIPMENT_NOT_FOUND: { en: 'The equipment does not exist', cn: '冷链设备不存在' },
  EQUIPMENT_TYPE_NOT_FOUND: { en: 'The equipment type does not exist', cn: '设备类型不存在' },
  EQUIPMENT_TYPE_CODE_TAKEN: {
    en: 'The type code is already used in this company',
    cn: '该类型编码在本企业已被使用',
  },
  EQUIPMENT_TYPE_CODE_IN_USE: {
    en: 'The type code cannot change while equipment uses it',
    cn: '已有设备使用该类型，类型编码不能修改',
  },
  EQUIPMENT_TYPE_IN_USE: {
    en: '{count} pieces of equipment use this type; it cannot be deleted',
    cn: '有 {count} 台设备使用该类型，无法删除',
  },
  EQUIPMENT_ATTRIBUTE_UNKNOWN: {
    en: 'The attribute {id} does not belong to this type; reload the type and try again',
    cn: '属性 {id} 不属于该类型，请刷新后重试',
  },
  EQUIPMENT_DISPOSED: { en: 'Disposed equipment cannot be changed', cn: '已报废的设备不能修改' },
  EQUIPMENT_ALREADY_DISPOSED: { en: 'The equipment is already disposed', cn: '该设备已报废' },
  EQUIPMENT_GROUPED: {
    en: 'Equipment bound to a group cannot be scrapped until unbound',
    cn: '设备已绑定分组，解绑后才能报废',
  },
  EQUIPMENT_SENSOR_TAKEN: {
    en: 'Sensor {sensor} is already bound to equipment {equipment}',
    cn: '传感器 {sensor} 已绑定到冷链设备 {equipment}',
  },
  EQUIPMENT_FILE_NOT_FOUND: {
    en: '{name}: the file was not found; upload it again',
    cn: '{name}：未找到文件，请重新上传',
  },
  EQUIPMENT_INTRO_IMAGE_TYPE: { en: 'The intro image must be a JPG or PNG', cn: '介绍图片须为 JPG 或 PNG' },
  EQUIPMENT_PHOTO_TYPE: { en: 'The patrol photo must be a JPG or PNG', cn: '巡检照片须为 JPG 或 PNG' },
  ATTRIBUTE_REQUIRED: { en: '{name} is required', cn: '{name}必填' },
  ATTRIBUTE_TEXT: {
    en: '{name} must be text of {min}-{max} characters',
    cn: '{name}须为 {min}-{max} 个字符的文本',
  },
  ATTRIBUTE_NUMBER: { en: '{name} must be a number', cn: '{name}须为数字' },
  ATTRIBUTE_INTEGER: { en: '{name} must be a whole number', cn: '{name}须为整数' },
  ATTRIBUTE_DECIMALS: { en: '{name} may have at most 2 decimals', cn: '{name}最多 2 位小数' },
  ATTRIBUTE_TOO_SMALL: { en: '{name} must be at least {min}', cn: '{name}不能小于 {min}' },
  ATTRIBUTE_TOO_BIG: { en: '{name} must be at most {max}', cn: '{name}不能大于 {max}' },
  ATTRIBUTE_ATTACHMENT: {
    en: '{name} must be a PDF, JPG or PNG under 1 MB uploaded to this server',
    cn: '{name}须为已上传的 1MB 以内 PDF、JPG 或 PNG 文件',
  },
  ATTRIBUTE_CHOICE: { en: '{name} must be one of its options', cn: '{name}须为给定选项之一' },
  ATTRIBUTE_CHOICE_SINGLE: { en: '{name} takes a single choice', cn: '{name}只能单选' },
  ATTRIBUTE_CHOICE_OTHER: {
    en: '{name}: at most one "other" text of up to 50 characters',
    cn: '{name}：“其他”最多填写一项，不超过 50 个字符',
  },
  PATROL_PLAN_NOT_FOUND: { en: 'The patrol plan does not exist', cn: '巡检计划不存在' },
  'rule.statsPeriod': {
    en: '{field}: a custom period covers at most 366 days',
    cn: '{field}：自定义时段最长 366 天',
  },
  EQUIPMENT_EXPORT_TOO_LARGE: {
    en: '{count} rows match; at most {max} can be exported at once. Narrow the filters.',
    cn: '共有 {count} 条匹配，一次最多导出 {max} 条，请缩小筛选范围',
  },
} as const satisfies Catalogue;

/** Texts of the equipment list and timeline exports (headers, states, record fields). */
export const equipmentExportTexts = {
  equipmentSheet: { en: 'Equipment', cn: '冷链设备' },
  recordsSheet: { en: 'Equipment records', cn: '设备履历' },
  columns: {
    serial: { en: 'Serial number', cn: '设备编号' },
    name: { en: 'Name', cn: '设备名称' },
    type: { en: 'Equipment type', cn: '设备类型' },
    department: { en: 'Department', cn: '所属部门' },
    group: { en: 'Group', cn: '分组' },
    useState: { en: 'Use state', cn: '使用状态' },
    region: { en: 'Region', cn: '所在区域' },
    address: { en: 'Address', cn: '详细地址' },
    sensors: { en: 'Sensors', cn: '传感器数' },
    nextCalibration: { en: 'Next calibration', cn: '下次校准时间' },
    remarks: { en: 'Remarks', cn: '备注' },
    createTime: { en: 'Created', cn: '创建时间' },
    time: { en: 'Time', cn: '时间' },
    kind: { en: 'Record', cn: '记录类型' },
    details: { en: 'Details', cn: '详情' },
    createdBy: { en: 'Recorded by', cn: '记录人' },
  },
  useStates: {
    1: { en: 'In use', cn: '在用' },
    2: { en: 'Under service', cn: '维修保养中' },
    3: { en: 'Disposed', cn: '已报废' },
    4: { en: 'Standby', cn: '备用' },
  } as Record<number, { en: string; cn: string }>,
  kinds: {
    calibration: { en: 'Calibration', cn: '校准' },
    repair: { en: 'Repair', cn: '维修' },
    maintenance: { en: 'Maintenance', cn: '保养' },
    scrap: { en: 'Scrap / move-out', cn: '报废/移出' },
    transfer: { en: 'Transfer', cn: '转移' },
    patrol: { en: 'Patrol', cn: '巡检' },
  } as Record<string, { en: string; cn: string }>,
  fields: {
    institution: { en: 'Institution', cn: '校准机构' },
    nextDueAt: { en: 'Next due', cn: '下次校准' },
    certificateUrl: { en: 'Certificate', cn: '证书' },
    unit: { en: 'Unit', cn: '单位' },
    person: { en: 'Person', cn: '人员' },
    cause: { en: 'Cause', cn: '故障原因' },
    repaired: { en: 'Repaired', cn: '是否修复' },
    repairTime: { en: 'Repair time', cn: '维修时间' },
    endTime: { en: 'End', cn: '结束时间' },
    durationMinutes: { en: 'Duration (min)', cn: '时长（分钟）' },
    preventive: { en: 'Preventive', cn: '预防性' },
    scrapType: { en: 'Type', cn: '类型' },
    fromDepartmentName: { en: 'From', cn: '转出部门' },
    toDepartmentName: { en: 'To', cn: '转入部门' },
    operator: { en: 'Operator', cn: '操作人' },
    reading: { en: 'Reading', cn: '读数' },
    condition: { en: 'Condition', cn: '状况' },
    remarks: { en: 'Remarks', cn: '备注' },
  } as Record<string, { en: string; cn: string }>,
  values: {
    yes: { en: 'yes', cn: '是' },
    no: { en: 'no', cn: '否' },
    scrap: { en: 'scrap', cn: '报废' },
    moveOut: { en: 'move-out', cn: '移出' },
    normal: { en: 'normal', cn: '正常' },
    abnormal: { en: 'abnormal', cn: '异常' },
  } as Record<string, { en: string; cn: string }>,
};

/** Field labels of equipment requests, so validation messages name the field. */
export const equipmentLabels: LabelCatalogue = {
  introImage: { en: 'Intro image', cn: '介绍图片' },
  attributes: { en: 'Attributes', cn: '自定义属性' },
  'attributes.name': { en: 'Attribute name', cn: '属性名称' },
  'attributes.kind': { en: 'Attribute kind', cn: '属性类型' },
  minLength: { en: 'Minimum length', cn: '最小长度' },
  maxLength: { en: 'Maximum length', cn: '最大长度' },
  numberKind: { en: 'Number kind', cn: '数值类型' },
  options: { en: 'Options', cn: '选项' },
  typeId: { en: 'Equipment type', cn: '设备类型' },
  serialSuffix: { en: 'Custom serial number', cn: '自定义编号' },
  useState: { en: 'Use state', cn: '使用状态' },
  sensorIds: { en: 'Sensors', cn: '传感器' },
  excursion: { en: 'Excursion budget', cn: '超标预算' },
  budgetMinutes: { en: 'Excursion budget (minutes)', cn: '超标预算（分钟）' },
  equipmentId: { en: 'Equipment', cn: '冷链设备' },
  toDepartmentId: { en: 'Receiving department', cn: '转入部门' },
  faultTime: { en: 'Fault time', cn: '故障时间' },
  repairTime: { en: 'Repair time', cn: '维修时间' },
  repaired: { en: 'Repaired', cn: '是否修复' },
  person: { en: 'Person', cn: '人员' },
  scrapType: { en: 'Scrap type', cn: '报废类型' },
  condition: { en: 'Condition', cn: '状况' },
  reading: { en: 'Reading', cn: '读数' },
  photoUrl: { en: 'Photo', cn: '照片' },
  intervalHours: { en: 'Patrol interval (hours)', cn: '巡检间隔（小时）' },
  planId: { en: 'Patrol plan', cn: '巡检计划' },
  period: { en: 'Period', cn: '统计周期' },
  unit: { en: 'Unit', cn: '单位' },
  time: { en: 'Time', cn: '时间' },
  remarks: { en: 'Remarks', cn: '备注' },
};

/**
 * Labels of fields whose name another area already uses with another meaning (`code` is the
 * verification code at login, `cause` an alarm's cause): named per call, so neither overrides the other.
 */
export const equipmentRouteLabels: Record<string, LabelCatalogue> = {
  '/api/equipmentType/saveType': { code: { en: 'Type code', cn: '类型编码' } },
  '/api/equipment/addRecord': { cause: { en: 'Fault cause', cn: '故障原因' } },
};
