import { mkdirSync } from 'node:fs';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
mkdirSync(config.dataDir, { recursive: true });
const app = await buildApp({ config });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal}: closing`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
app.log.info(
  `Verdant is ready at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/h5/ (data: ${where})`,
);
