/** Where the end-to-end servers run and what they share with the tests. */
export const e2e = {
  appPort: 3100,
  appUrl: "http://127.0.0.1:3100",
  appDataDir: ".e2e-data/app",
  identityPort: 3101,
  identityUrl: "http://127.0.0.1:3101",
  identityDataDir: ".e2e-data/identity",
  clientId: "safewindow-web",
  clientSecret: "e2e-client-secret-not-for-production",
} as const;
