import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { stubServer } from '../../../test/fake-server';
import { currentLocation, renderApp, resetBrowserState } from '../../../test/render-app';
import { allPowers, bodies, choose, tree } from '../test-fixtures';

const WAIT = { timeout: 20_000 };
const URL = '/user/organization/addSector?parentId=11';

beforeAll(async () => {
  await import('.');
}, 60_000);

function serve() {
  return stubServer({
    overrides: {
      '/api/index/getUserPowers': allPowers,
      '/api/user/userOrganizeList': () => tree,
      '/api/personnel/memberOptions': () => [{ id: '3', name: 'Siti Aminah' }],
      '/api/file/upload': () => ({ url: '/files/dept.png' }),
      '/api/userOrganize/addDepartment': () => ({ id: '13' }),
    },
  });
}

function fileInput(): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>('input[type=file]');
  if (!input) throw new Error('no file input');
  return input;
}

beforeEach(async () => {
  resetBrowserState();
  localStorage.setItem('accessToken', 't');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('add department', () => {
  it('checks the name: required and 2-20 characters', async () => {
    const server = serve();
    renderApp(URL);
    await userEvent.click(await screen.findByTestId('sector-submit', {}, WAIT));
    expect(await screen.findByText('Organization name must be 2-20 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('sector-name'), 'A department name too long');
    await userEvent.click(screen.getByTestId('sector-submit'));
    await waitFor(() =>
      expect(screen.getByText('Organization name must be 2-20 characters')).toBeInTheDocument(),
    );
    expect(bodies(server, '/api/userOrganize/addDepartment')).toHaveLength(0);
  });

  it('refuses an image that is not jpg or png, or larger than 3 MB, before uploading', async () => {
    const server = serve();
    const user = userEvent.setup({ applyAccept: false });
    renderApp(URL);
    await screen.findByTestId('sector-submit', {}, WAIT);
    await user.upload(fileInput(), new File(['gif'], 'dept.gif', { type: 'image/gif' }));
    expect(await screen.findByText('The department image must be a jpg or png file')).toBeInTheDocument();
    const big = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await user.upload(fileInput(), big);
    expect(await screen.findByText('The department image must be at most 3 MB')).toBeInTheDocument();
    expect(server.mock.calls.some(([input]) => String(input) === '/api/file/upload')).toBe(false);
  });

  it('uploads the image and adds the department under the parent of the link', async () => {
    const server = serve();
    renderApp(URL);
    await screen.findByTestId('sector-submit', {}, WAIT);
    await waitFor(() => expect(screen.getByTestId('sector-parent')).toHaveTextContent('Pharmacy'));
    await userEvent.type(screen.getByTestId('sector-name'), 'Vaccine store');
    await choose('sector-leader', 'Siti Aminah');
    await userEvent.type(screen.getByTestId('sector-address'), 'Level 2');
    await userEvent.upload(fileInput(), new File(['png'], 'dept.png', { type: 'image/png' }));
    const image = await screen.findByTestId('department-image');
    expect(image.querySelector('img')).toHaveAttribute('src', '/files/dept.png');
    const upload = server.mock.calls.find(([input]) => String(input) === '/api/file/upload');
    const sent = upload?.[1]?.body;
    expect(sent).toBeInstanceOf(FormData);
    expect((sent as FormData).get('file')).toBeInstanceOf(File);
    expect((sent as FormData).get('purpose')).toBe('department');
    await userEvent.click(screen.getByTestId('sector-submit'));
    await waitFor(() =>
      expect(bodies(server, '/api/userOrganize/addDepartment')).toEqual([
        {
          parentId: '11',
          name: 'Vaccine store',
          leaderId: '3',
          address: 'Level 2',
          imageUrl: '/files/dept.png',
        },
      ]),
    );
    await waitFor(() => expect(currentLocation.path).toBe('/user/organization'), WAIT);
  });
});
