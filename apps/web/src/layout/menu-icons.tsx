import {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  CarOutlined,
  DashboardOutlined,
  HddOutlined,
  HomeOutlined,
  SendOutlined,
  ShopOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/**
 * The icons the menu tree names (contract MENU_TREE). A fixed map instead of importing every
 * icon keeps the bundle small; a test checks the map covers the tree.
 */
export const MENU_ICONS: Record<string, ComponentType> = {
  AlertOutlined,
  ApiOutlined,
  AuditOutlined,
  BarChartOutlined,
  CarOutlined,
  DashboardOutlined,
  HddOutlined,
  HomeOutlined,
  SendOutlined,
  ShopOutlined,
  TeamOutlined,
};

export function MenuIcon({ name }: { name: string }) {
  if (!name) return null;
  const Icon = MENU_ICONS[name] ?? AppstoreOutlined;
  return <Icon />;
}
