import type { EquipmentDetail, EquipmentTypeView, Page } from '@coldchain/contract';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../test/build-app';
import { buildCompany, login } from '../../test/factories';

const text = { name: 'Asset tag', kind: 'text', minLength: 4, maxLength: 8 };
const volume = { name: 'Volume', kind: 'number', numberKind: 'integer', min: 10, max: 2000, unit: 'L' };
const brand = { name: 'Brand', kind: 'choice', options: ['Haier', 'Aucma'], allowOther: true };

describe('equipment types', () => {
  const ctx = useTestApp();

  async function admin() {
    const company = await buildCompany(ctx.app.db);
    const token = await login(ctx.app, company.admin.account);
    const post = <T>(url: string, body: unknown) => call<T>(ctx.app, url, body, { token });
    return { company, token, post };
  }

  it('stores one attribute of each kind with server ids, and pages the types', async () => {
    const { post } = await admin();
    const attachment = { name: 'Manual', kind: 'attachment' };
    const saved = await post<{ id: string; affectedEquipment: number }>('/api/equipmentType/saveType', {
      name: 'Fridge',
      code: '101',
      attributes: [text, volume, attachment, brand],
    });
    expect(saved.body.msgCode).toBe(200);
    const page = await post<Page<EquipmentTypeView>>('/api/equipmentType/pageTypes', {
      pageNum: 1,
      pageSize: 10,
    });
    const type = page.body.data.list[0]!;
    expect(type.attributes.map((a) => a.kind)).toEqual(['text', 'number', 'attachment', 'choice']);
    expect(type.attributes.every((a) => /^[a-f0-9]{8}$/.test(a.id))).toBe(true);
    expect(type.attributes[3]).toMatchObject({ multiple: false, allowOther: true });
  });

  it('refuses more than 20 attributes, a text range outside 4-10, a non-digit code and a taken code', async () => {
    const { post } = await admin();
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `A${i}`, kind: 'number' }));
    const tooMany = await post('/api/equipmentType/saveType', { name: 'X', code: '1', attributes: many });
    expect(tooMany.body.msgContent).toBe('Attributes: at most 20 attributes per equipment type');
    const twenty = await post('/api/equipmentType/saveType', {
      name: 'X',
      code: '1',
      attributes: many.slice(1),
    });
    expect(twenty.body.msgCode).toBe(200);
    const short = await post('/api/equipmentType/saveType', {
      name: 'Y',
      code: '2',
      attributes: [{ name: 'T', kind: 'text', minLength: 3 }],
    });
    expect(short.body.msgCode).toBe(500);
    expect(short.body.msgContent).toContain('Minimum length');
    const letters = await post('/api/equipmentType/saveType', { name: 'Y', code: '12a', attributes: [] });
    expect(letters.body.msgContent).toBe('Type code must be 1-10 digits');
    const taken = await post('/api/equipmentType/saveType', { name: 'Z', code: '1', attributes: [] });
    expect(taken.body.msgContent).toBe('The type code is already used in this company');
  });

  it('changing a type keeps stored values, counts and lists the equipment that no longer fit', async () => {
    const { post } = await admin();
    const { body: created } = await post<{ id: string }>('/api/equipmentType/saveType', {
      name: 'Freezer',
      code: '202',
      attributes: [volume],
    });
    const type = (await post<EquipmentTypeView>('/api/equipmentType/typeDetail', { id: created.data.id }))
      .body.data;
    const volumeId = type.attributes[0]!.id;
    const eq = await post<{ id: string; serial: string }>('/api/equipment/saveEquipment', {
      typeId: created.data.id,
      serialSuffix: '0001',
      name: 'Vaccine freezer',
      attributes: { [volumeId]: 500 },
    });
    expect(eq.body.data.serial).toBe('2020001');
    // Narrow the range below the stored 500 and add a required attribute.
    const changed = await post<{ affectedEquipment: number }>('/api/equipmentType/saveType', {
      id: created.data.id,
      name: 'Freezer',
      code: '202',
      attributes: [
        { ...volume, id: volumeId, max: 300 },
        { ...text, required: true },
      ],
    });
    expect(changed.body.data.affectedEquipment).toBe(1);
    const detail = (await post<EquipmentDetail>('/api/equipment/equipmentDetail', { id: eq.body.data.id }))
      .body.data;
    expect(detail.attributes[volumeId]).toBe(500);
    expect(detail.attributeIssueCount).toBe(2);
    expect(detail.attributeIssues.map((i) => i.message)).toEqual([
      'Volume must be at most 300',
      'Asset tag is required',
    ]);
    const codeChange = await post('/api/equipmentType/saveType', {
      id: created.data.id,
      name: 'Freezer',
      code: '203',
      attributes: [],
    });
    expect(codeChange.body.msgContent).toBe('The type code cannot change while equipment uses it');
    const unknown = await post('/api/equipmentType/saveType', {
      id: created.data.id,
      name: 'Freezer',
      code: '202',
      attributes: [{ ...volume, id: 'abcdef12' }],
    });
    expect(unknown.body.msgContent).toContain('abcdef12');
    const deletion = await post('/api/equipmentType/deleteType', { id: created.data.id });
    expect(deletion.body.msgContent).toBe('1 pieces of equipment use this type; it cannot be deleted');
  });
});
