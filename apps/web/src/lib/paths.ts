import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';

/** Every link of the app, in one typed place. */
export const paths = {
  root: () => '/',
  login: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/login`,
  notFound: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/404`,
  about: (clientId: string) => `/${clientId}/about`,
  privacy: (clientId: string) => `/${clientId}/privacy`,
  terms: (clientId: string) => `/${clientId}/terms`,
} as const;
