import type {
  PersonalInfo,
  PhoneBinding,
  SetSignPasswordRequest,
  UpdateUserInfoRequest,
  UserAddress,
} from '@coldchain/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { idToWire } from '../../lib/ids';
import { hashPassword, verifyPassword } from '../../lib/password';
import { companies, companyMembers } from '../companies/companies.table';
import { departments, roles } from '../org/org.table';
import { loadSigner, signerOf, verifySignature } from '../signature/signature.service';
import { guardSecret } from '../signature/signature-throttle';
import { users } from '../users/users.table';
import { auditSelf } from './profile-audit';

async function requireUser(db: Queryable, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('LOGIN_EXPIRED');
  return user;
}

/** The caller's place in the company in scope: company, department and role names. */
async function placement(db: Db, userId: number, companyId: number | null) {
  if (companyId === null) return null;
  const [row] = await db
    .select({
      company: companies.name,
      companyAddress: companies.address,
      department: departments.name,
      departmentAddress: departments.address,
      role: roles.name,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .leftJoin(departments, eq(departments.id, companyMembers.departmentId))
    .leftJoin(roles, eq(roles.id, companyMembers.roleId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function getPersonalInfo(
  db: Db,
  userId: number,
  companyId: number | null,
): Promise<PersonalInfo> {
  const user = await requireUser(db, userId);
  const place = await placement(db, userId, companyId);
  return {
    id: idToWire(user.id),
    account: user.account,
    name: user.name,
    gender: user.gender,
    phone: user.phone ?? '',
    email: user.email ?? '',
    altPhone: user.altPhone,
    headImg: user.headImg,
    pcAlarmVoice: user.pcAlarmVoice,
    signPasswordSet: user.signPasswordHash !== null,
    wechatBound: user.wechatOpenId !== null,
    wechatFollowed: user.wechatOpenId !== null && user.wechatFollowed,
    company: place?.company ?? '',
    department: place?.department ?? '',
    role: place?.role ?? '',
  };
}

/** The profile fields a person may change about themselves; the login account is not one of them. */
export async function updateUserInfo(db: Db, request: FastifyRequest, input: UpdateUserInfoRequest) {
  const userId = request.auth.userId;
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return;
  await db.transaction(async (tx) => {
    const before = await requireUser(tx, userId);
    await tx.update(users).set(changes).where(eq(users.id, userId));
    const was = Object.fromEntries(Object.keys(changes).map((k) => [k, before[k as keyof typeof before]]));
    await auditSelf(tx, request, { action: 'user.updateProfile', before: was, after: changes });
  });
}

/**
 * Sets the signature password, or changes it when one is set. A change is proved by the current
 * signature password or, for one who forgot it, by the login password (docs/decisions.md); both
 * go through the signing lock, so neither can be guessed here either.
 */
export async function setSignPassword(db: Db, request: FastifyRequest, input: SetSignPasswordRequest) {
  const who = signerOf(request);
  const user = await requireUser(db, who.userId);
  const current = user.signPasswordHash;
  let proof: 'signPassword' | 'loginPassword' | null = null;
  if (current !== null) {
    const { oldPassword, loginPassword } = input;
    if (oldPassword) {
      await guardSecret(db, who, user, () => verifyPassword(oldPassword, current), 'SIGN_PASSWORD_WRONG');
      proof = 'signPassword';
    } else if (loginPassword) {
      await guardSecret(
        db,
        who,
        user,
        () => verifyPassword(loginPassword, user.passwordHash),
        'LOGIN_PASSWORD_WRONG',
      );
      proof = 'loginPassword';
    } else {
      throw new AppError('SIGN_PASSWORD_OLD_REQUIRED');
    }
  }
  const signPasswordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    // A new password ends any lock: its owner has just proved who they are.
    await tx
      .update(users)
      .set({ signPasswordHash, signFailCount: 0, signFailedAt: null, signLockedUntil: null })
      .where(eq(users.id, user.id));
    await auditSelf(
      tx,
      request,
      proof === null
        ? { action: 'user.setSignPassword' }
        : { action: 'user.changeSignPassword', after: { proof } },
    );
  });
}

/**
 * The personal centre's check before a patrol or an export is submitted, under the same lock as
 * every signature. New signed actions use `requireSignature` (modules/signature) instead, which
 * also applies the company's audit signature switch.
 */
export async function verifySignPassword(db: Db, request: FastifyRequest, password: string): Promise<void> {
  const who = signerOf(request);
  await verifySignature(db, who, await loadSigner(db, who), password);
}

/** Hides the middle of a number: 13800001234 -> 138****1234. */
export function maskPhone(phone: string): string {
  if (phone.length < 7) return phone.replace(/.(?=.)/g, '*');
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

/**
 * Whether SMS and call alarms can reach the user: a mobile number is bound when the profile
 * phone is set or the login account is a mobile number.
 */
export async function checkPhoneBinding(db: Db, userId: number): Promise<PhoneBinding> {
  const user = await requireUser(db, userId);
  const phone = user.phone || (/^\+?\d{7,}$/.test(user.account) ? user.account : '');
  return { bound: phone !== '', phone: phone ? maskPhone(phone) : '' };
}

/** Where the caller works: their department's address, else the company's (decisions.md). */
export async function getUserAddress(db: Db, userId: number, companyId: number | null): Promise<UserAddress> {
  const place = await placement(db, userId, companyId);
  const companyAddress = place?.companyAddress ?? '';
  const departmentAddress = place?.departmentAddress ?? '';
  return {
    company: place?.company ?? '',
    companyAddress,
    department: place?.department ?? '',
    departmentAddress,
    address: departmentAddress || companyAddress,
  };
}
