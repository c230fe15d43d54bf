/**
 * Every call whose name says it changes something, with what it writes to the operation log or
 * why it writes nothing there. `audited-calls.test.ts` walks the app's real route table: a new
 * call that changes data fails the test until it is listed here, so no change escapes the trail
 * unnoticed. Actions are the `recordAudit` `action:` codes (named in the contract's
 * `auditActionTitles`).
 */
export type AuditCoverage = { actions: string[] } | { exempt: string };

const LOGIN_LOG = 'recorded in the login log, not the operation log';
const PERSONAL = 'changes only the caller’s own reading state, not company data';

export const AUDITED_CALLS: Record<string, AuditCoverage> = {
  // Device management
  '/api/device/addDevice': { actions: ['device.add'] },
  '/api/device/editDevice': { actions: ['device.edit'] },
  '/api/device/setRemark': { actions: ['device.setRemark'] },
  '/api/device/editSensor': { actions: ['sensor.edit'] },
  '/api/device/resetDeviceKey': { actions: ['device.resetKey'] },
  '/api/device/batchTransfer': { actions: ['device.transfer'] },
  '/api/device/batchPermission': { actions: ['device.permission'] },
  '/api/device/addCalibrationImg': {
    exempt: 'stores an uploaded file only; the record that uses it is audited',
  },
  '/api/device/addCalibration': { actions: ['calibration.add'] },
  '/api/device/deleteCalibration': { actions: ['calibration.delete'] },
  // Cold-chain equipment
  '/api/equipmentType/saveType': { actions: ['equipmentType.save'] },
  '/api/equipmentType/deleteType': { actions: ['equipmentType.delete'] },
  '/api/equipment/saveEquipment': { actions: ['equipment.save'] },
  '/api/equipment/batchTransfer': { actions: ['equipment.transfer'] },
  '/api/equipment/addRecord': {
    actions: [
      'calibration.add',
      'equipment.repair',
      'equipment.maintenance',
      'equipment.scrap',
      'equipment.transfer',
      'equipment.patrol',
    ],
  },
  '/api/equipment/savePatrolPlan': { actions: ['patrolPlan.save'] },
  '/api/equipment/deletePatrolPlan': { actions: ['patrolPlan.delete'] },
  // Open API keys
  '/api/openApi/createKey': { actions: ['openApi.createKey'] },
  '/api/openApi/revokeKey': { actions: ['openApi.revokeKey'] },
  '/api/openApi/setDevices': { actions: ['openApi.setDevices'] },
  // Push docking
  '/api/push/saveUrl': { actions: ['push.saveUrl'] },
  '/api/push/setDevices': { actions: ['push.setDevices'] },
  '/api/push/testUrl': { actions: ['push.testUrl'] },
  '/api/push/stopUrl': { actions: ['push.stopUrl'] },
  '/api/platformDock/apply': { actions: ['platformDock.apply'] },
  '/api/platformDock/setDevices': { actions: ['platformDock.setDevices'] },
  '/api/platformDock/stop': { actions: ['platformDock.stop'] },
  '/api/operator/platform/decideRequest': { actions: ['platformDock.enable', 'platformDock.refuse'] },
  '/api/operator/platform/savePlatform': { actions: ['operator.savePlatform'] },
  // Logistics addresses
  '/api/logistics/saveAddress': { actions: ['logisticsAddress.add', 'logisticsAddress.edit'] },
  '/api/logistics/deleteAddress': { actions: ['logisticsAddress.delete'] },
  // Delivery and receiving orders
  '/api/logistics/saveDelivery': { actions: ['logisticsDelivery.add', 'logisticsDelivery.edit'] },
  '/api/logistics/departDelivery': { actions: ['logisticsDelivery.depart'] },
  '/api/logistics/arriveDelivery': { actions: ['logisticsDelivery.arrive', 'alarm.endByRule'] },
  '/api/logistics/cancelDelivery': { actions: ['logisticsDelivery.cancel', 'alarm.endByRule'] },
  '/api/logistics/receiveDelivery': { actions: ['logisticsDelivery.receive'] },
  '/api/logistics/sendReceiptLink': { actions: ['logisticsDelivery.sendLink'] },
  '/api/logistics/linkReceive': { actions: ['logisticsDelivery.receiveByLink'] },
  // Cameras (modules/camera)
  '/api/camera/savePlatformAccount': { actions: ['cameraAccount.add', 'cameraAccount.edit'] },
  '/api/camera/deletePlatformAccount': { actions: ['cameraAccount.delete'] },
  '/api/camera/importCameras': { actions: ['camera.import'] },
  '/api/camera/saveCamera': { actions: ['camera.add', 'camera.edit'] },
  '/api/camera/deleteCamera': { actions: ['camera.delete'] },
  '/api/camera/saveScreen': { exempt: 'the caller’s own camera wall layout, not company data' },
  // Data report backup tasks
  '/api/report/saveTask': { actions: ['reportTask.add', 'reportTask.edit'] },
  '/api/report/deleteTask': { actions: ['reportTask.delete'] },
  '/api/operationReport/saveTask': { actions: ['operationReportTask.add', 'operationReportTask.edit'] },
  '/api/operationReport/deleteTask': { actions: ['operationReportTask.delete'] },
  '/api/group/addGroup': { actions: ['group.add'] },
  '/api/group/editGroup': { actions: ['group.edit'] },
  '/api/group/moveGroup': { actions: ['group.move'] },
  '/api/group/deleteGroup': { actions: ['group.delete'] },
  // Alarms
  '/api/deviceAlarmRule/saveAlarmSetting': { actions: ['alarmSetting.create', 'alarmSetting.edit'] },
  '/api/deviceAlarmRule/deleteAlarmSetting': { actions: ['alarmSetting.delete'] },
  '/api/alarm/resolveAlarm': { actions: ['alarm.resolve'] },
  '/api/deviceAlarmRule/batchSaveAlarmSetting': { actions: ['alarmSetting.create'] },
  '/api/alarm/exportAlarms': { actions: ['alarm.export'] },
  // Organization
  '/api/user/createCompany': { actions: ['company.create'] },
  '/api/user/changeOrganizeName': { actions: ['company.rename', 'company.edit'] },
  '/api/user/dropOutOrganize': { actions: ['member.leave'] },
  '/api/userOrganize/addDepartment': { actions: ['department.add'] },
  '/api/userOrganize/editDepartment': { actions: ['department.edit'] },
  '/api/userOrganize/deleteDepartment': { actions: ['department.delete'] },
  '/api/userOrganize/transferLeader': { actions: ['department.transferLeader'] },
  '/api/userOrganize/createInvite': { actions: ['invitation.create'] },
  '/api/userOrganize/inviteJoinOrganize': { actions: ['member.joinByInvite'] },
  '/api/user/joinOrganize': { actions: ['joinRequest.apply'] },
  '/api/register/joinOrganization': { actions: ['joinRequest.apply'] },
  '/api/user/incomingAudit': { actions: ['joinRequest.approve', 'joinRequest.reject'] },
  '/api/role/addRole': { actions: ['role.add'] },
  '/api/role/editRole': { actions: ['role.edit'] },
  '/api/role/deleteRole': { actions: ['role.delete'] },
  '/api/personnel/assignRole': { actions: ['member.assignRole'] },
  '/api/personnel/moveUser': { actions: ['member.move'] },
  '/api/personnel/removeUser': { actions: ['member.remove'] },
  '/api/loginSecurity/setPasswordRenewal': { actions: ['company.passwordRenewal'] },
  '/api/company/setAuditSignature': { actions: ['company.auditSignature'] },
  '/api/personnel/setExportExcel': { actions: ['member.exportExcel'] },
  // Personal centre (audited in the company in scope, when there is one)
  '/api/user/updateUserInfo': { actions: ['user.updateProfile'] },
  '/api/register/modifyInformation': { actions: ['user.updateProfile'] },
  '/api/user/updatePassword': { actions: ['user.updatePassword'] },
  '/api/user/setSignPassword': { actions: ['user.setSignPassword', 'user.changeSignPassword'] },
  '/api/user/bindWeChat': { actions: ['user.bindWeChat'] },
  '/api/user/unbindWeChat': { actions: ['user.unbindWeChat'] },
  '/api/user/unbindWeChatOfficial': { actions: ['user.unbindWeChatOfficial'] },
  '/api/user/addFeedback': { actions: ['feedback.add'] },
  '/api/user/readNotice': { actions: ['notice.read'] },
  '/api/user/readNoticeAll': { actions: ['notice.readAll'] },
  '/api/user/deleteNotice': { actions: ['notice.delete'] },
  // Audit trail: the company-wide files record who took them; one's own login history does not
  '/api/audit/exportOperationLog': { actions: ['audit.exportOperationLog'] },
  '/api/userLoginLog/auditExportUserLog': { actions: ['audit.exportLoginLog'] },
  '/api/device/exportData': { actions: ['device.exportData'] },
  '/api/statistics/exportStatistics': { actions: ['statistics.export'] },
  '/api/device/monitoringDevicePay': { actions: ['order.renewal'] },
  '/api/device/monitoringDeviceRecovery': { actions: ['order.recovery'] },
  '/api/order/cancelOrder': { actions: ['order.cancel'] },
  '/api/order/buyCredits': { actions: ['order.credits'] },
  '/api/order/payByTransfer': { actions: ['order.payByTransfer'] },
  '/api/order/payOnline': { actions: ['order.payOnline'] },
  '/api/order/cancelServiceOrder': { actions: ['order.cancel'] },
  '/api/payment/webhook': { actions: ['order.approve'] },
  '/api/invoice/applyInvoice': { actions: ['invoice.apply'] },
  '/api/invoice/cancelInvoice': { actions: ['invoice.cancel'] },
  '/api/operator/invoice/issueInvoice': { actions: ['invoice.issue'] },
  '/api/operator/invoice/rejectInvoice': { actions: ['invoice.reject'] },
  '/api/operator/order/approveOrder': { actions: ['order.approve'] },
  '/api/operator/order/rejectOrder': { actions: ['order.reject'] },
  '/api/operator/order/setDueDate': { actions: ['order.setDueDate'] },
  '/api/credit/exportLedger': { actions: ['credit.exportLedger'] },
  '/api/device/pushParameters': { actions: ['device.pushParameters'] },
  '/api/device/readParameters': {
    exempt: 'asks the device for its current parameters; nothing on the device or its record changes',
  },
  // The operator console (modules/operator): in the company's trail, inventory in the platform's
  '/api/operator/setServices': { actions: ['operator.setServices'] },
  '/api/operator/grantCredits': { actions: ['operator.grantCredits'] },
  '/api/operator/setCompanyDisabled': { actions: ['operator.disableCompany', 'operator.enableCompany'] },
  '/api/operator/importInventory': { actions: ['operator.importInventory'] },
  '/api/company/setSupportAccess': { actions: ['company.grantSupportAccess', 'company.revokeSupportAccess'] },
  // Not in the operation log, and why
  '/api/register/registerAccount': { exempt: 'a new account belongs to no company yet, so no company trail' },
  '/api/resetPassword': {
    exempt: 'signed-out password recovery: no company in scope; the code check is logged',
  },
  '/api/index/switchUserCompany': { exempt: PERSONAL },
  '/api/logout': { exempt: 'ends one’s own session; changes no company data (not logged anywhere today)' },
  '/api/loginCode/createAddressCode': { exempt: 'a one-time login code for oneself, single use, expires' },
  '/api/qrLogin/createTicket': { exempt: LOGIN_LOG },
  '/api/qrLogin/scanTicket': { exempt: LOGIN_LOG },
  '/api/qrLogin/confirmTicket': { exempt: LOGIN_LOG },
  '/api/file/upload': { exempt: 'stores an uploaded file only; the record that uses it is audited' },
};

// The rule lives in the contract: the console's double-click guard uses it too.
export { CHANGING_CALL, isChangingCall, READING_CALL } from '@coldchain/contract';
