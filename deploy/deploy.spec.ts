import { serviceNodeFlags } from '@artemis-studio/testing';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** The deployment files are written for users and not run here: this keeps them consistent with the code. */
const SERVICES = { scraper: 8081, notifier: 8082, 'event-store': 8083, gateway: 8080 } as const;
const root = join(__dirname, '..');

interface Container {
  image: string;
  env: { name: string; value: string }[];
  envFrom: unknown[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  securityContext: Record<string, unknown>;
}

/** The parts of the manifests this test reads; any other field passes through unchecked. */
interface K8sDoc {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: { containers: Container[]; securityContext: Record<string, unknown> };
    };
    ports: { port: number }[];
    scaleTargetRef?: { name: string };
    podSelector?: { matchLabels?: Record<string, string> };
    ingress?: { from?: unknown[]; ports: { port: number }[] }[];
  };
}

/** The base's objects, as written (scripts/check-deploy.mjs renders the overlays and validates every object). */
describe('deploy/k8s/base', () => {
  const dir = join(root, 'deploy', 'k8s', 'base');
  const docs: K8sDoc[] = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => {
        if (d.errors.length) throw new Error(`${f}: ${d.errors[0].message}`);
        return d.toJSON() as K8sDoc;
      }),
    );

  it('lists every manifest in the kustomization', () => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it.each(Object.entries(SERVICES))('deploys %s with its port, probes and configuration', (service, port) => {
    const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === `studio-${service}`);
    expect(deployment).toBeDefined();
    const container = deployment!.spec.template.spec.containers[0];
    // Each service its own image (ADR-0030), the Dockerfile's target of that name.
    expect(container.image).toMatch(new RegExp(`^artemis-studio-${service}:`));
    expect(container.env).toEqual(
      expect.arrayContaining([
        { name: 'SERVICE', value: service },
        { name: 'PORT', value: String(port) },
      ]),
    );
    expect(container.ports[0].containerPort).toBe(port);
    // Probed (and scraped) on the operational port: the public port never answers them.
    expect(container.env).toContainEqual({ name: 'OPERATIONAL_PORT', value: '9090' });
    expect(container.ports).toContainEqual({ name: 'ops', containerPort: 9090 });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'ops' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'ops' });
    expect(deployment!.spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9090',
    });
    expect(deployment!.spec.template.spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    const budget = docs.find(
      (d) => d.kind === 'PodDisruptionBudget' && d.metadata.name === `studio-${service}`,
    );
    expect(budget).toBeDefined();
    expect(container.envFrom).toEqual([
      { configMapRef: { name: 'artemis-studio' } },
      { secretRef: { name: 'artemis-studio' } },
      // The gateway alone reads its sign-in secrets (first admin, OIDC client secret).
      ...(service === 'gateway' ? [{ secretRef: { name: 'artemis-studio-gateway', optional: true } }] : []),
    ]);
    expect(deployment!.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': `studio-${service}` });
    expect(deployment!.spec.template.metadata.labels).toMatchObject(deployment!.spec.selector.matchLabels);
    const svc = docs.find((d) => d.kind === 'Service' && d.metadata.name === `studio-${service}`);
    expect(svc?.spec.ports[0].port).toBe(port);
  });

  it('autoscales the gateway, and lets only it take traffic from outside', () => {
    const hpa = docs.find((d) => d.kind === 'HorizontalPodAutoscaler');
    expect(hpa?.spec.scaleTargetRef?.name).toBe('studio-gateway');
    const open = docs.filter((d) => d.kind === 'NetworkPolicy' && d.spec.ingress?.some((rule) => !rule.from));
    expect(open.map((p) => p.spec.podSelector?.matchLabels)).toEqual([
      { 'app.kubernetes.io/name': 'studio-gateway' },
    ]);
    expect(open[0]!.spec.ingress![0]!.ports).toEqual([{ protocol: 'TCP', port: 8080 }]);
  });

  it('runs several gateway replicas behind an unbuffered ingress', () => {
    const gateway = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'studio-gateway');
    expect(gateway!.spec.replicas).toBeGreaterThan(1);
    const ingress = docs.find((d) => d.kind === 'Ingress');
    expect(ingress?.metadata).toMatchObject({
      annotations: { 'nginx.ingress.kubernetes.io/proxy-buffering': 'off' },
    });
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
  const composeNames = (service: string) => (service === 'gateway' ? ['gateway-1', 'gateway-2'] : [service]);

  it.each(
    Object.entries(SERVICES).flatMap(([service, port]) =>
      composeNames(service).map((name) => [name, service, port] as const),
    ),
  )('runs %s on its port against postgres and nats', (name, service, port) => {
    const env = compose.services[name].environment;
    expect(env).toMatchObject({ SERVICE: service, PORT: String(port), NATS_URL: 'nats://nats:4222' });
    expect(env.DATABASE_URL).toMatch(/@postgres:5432\//);
    // The image's own check, through node (it has no curl), which reads PORT.
    expect(compose.services[name].healthcheck.test).toEqual(['CMD', 'node', '/app/healthcheck.js']);
    // Above the notifier's 15 s handover: Compose's default 10 s would cut it short.
    expect(compose.services[name].stop_grace_period).toBe('30s');
    expect(compose.services[name].image).toBe(`artemis-studio-${service}:local`);
  });

  it('builds each image once, from its target of the Dockerfile', () => {
    const builds = Object.entries(compose.services as Record<string, { build?: { target: string } }>)
      .filter(([, s]) => s.build)
      .map(([name, s]) => [name, s.build!.target]);
    expect(builds).toEqual([
      ['scraper', 'scraper'],
      ['notifier', 'notifier'],
      ['event-store', 'event-store'],
      ['gateway-1', 'gateway'],
    ]);
  });

  it('balances both gateways behind a proxy that does not buffer the stream', () => {
    expect(compose.services.proxy.depends_on).toEqual({
      'gateway-1': { condition: 'service_healthy' },
      'gateway-2': { condition: 'service_healthy' },
    });
    const nginx = readFileSync(join(root, 'deploy', 'compose', 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/server gateway-1:8080;\s+server gateway-2:8080;/);
    expect(nginx).toContain('proxy_buffering off;');
  });

  it('runs an Artemis live/backup pair, each pointing at the other, with notifications on', () => {
    for (const [node, other] of [
      ['primary', 'backup'],
      ['backup', 'primary'],
    ]) {
      expect(compose.services[`artemis-${node}`].volumes).toEqual([
        `./deploy/compose/artemis/${node}:/var/lib/artemis-instance/etc-override:ro`,
      ]);
      const xml = readFileSync(join(root, 'deploy', 'compose', 'artemis', node, 'broker.xml'), 'utf8');
      expect(xml).toContain(`<connector name="artemis">tcp://artemis-${node}:61616</connector>`);
      expect(xml).toContain(`tcp://artemis-${other}:61616</connector>`);
      expect(xml).toContain('NotificationActiveMQServerPlugin');
      expect(xml).toContain('<security-setting match="activemq.notifications">');
      expect(xml).toMatch(node === 'primary' ? /<primary><check-for-active-server>true/ : /<backup\s*\/?>/);
    }
  });

  it('starts NATS with JetStream', () => {
    expect(compose.services.nats.command).toContain('-js');
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

  it('runs as uid and gid 1000, by number (runAsNonRoot cannot check a name)', () => {
    expect(
      dockerfile
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('USER ')),
    ).toEqual(['USER 1000:1000']);
  });

  it('builds with the steps CI runs (npm ci, then the build: tsc -b and the console)', () => {
    expect(dockerfile).toContain('npm ci --no-audit --no-fund');
    expect(dockerfile).toContain('RUN npm run build');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.build).toBe('tsc -b && npm run build -w web');
    const test = readFileSync(join(root, 'scripts', 'test.sh'), 'utf8');
    expect(test).toContain('npm run --silent typecheck');
    expect(test).toContain('npm run --silent build -w web');
  });

  it("mounts npm's configuration and a CA for npm ci only, as build secrets", () => {
    const mounts = dockerfile.split('\n').filter((l) => l.includes('--mount=type=secret'));
    expect(mounts).toEqual(['RUN --mount=type=secret,id=npmrc --mount=type=secret,id=ca \\']);
    expect(dockerfile).not.toMatch(/^(COPY|ADD)\b.*(npmrc|\.crt|\.pem)/m);
  });

  it.each(Object.entries(SERVICES))(
    'has a target %s with only its tree, its port and its name',
    (service, port) => {
      const stage = dockerfile.split(/^FROM /m).find((s) => s.startsWith(`service AS ${service}\n`));
      expect(stage).toBeDefined();
      expect(stage).toContain(`ENV SERVICE=${service}`);
      expect(stage).toContain(`COPY --from=build /out/${service} /app`);
      expect(stage).toContain(`EXPOSE ${port}`);
    },
  );

  it('checks its health through node, says what it is, and runs in production mode', () => {
    expect(dockerfile).toContain('HEALTHCHECK');
    expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["node", "\/app\/healthcheck.js"\]$/m);
    for (const label of ['version', 'revision', 'source'])
      expect(dockerfile).toContain(`org.opencontainers.image.${label}=`);
    expect(dockerfile).toContain('ENV NODE_ENV=production');
  });

  it('starts whichever service SERVICE names, with its own Node.js flags', () => {
    expect(dockerfile).toMatch(/\$\{SERVICE:\?[^}]*\}/);
    expect(dockerfile).toContain(
      `exec node $(grep -vs '^#' services/$SERVICE/node-flags) services/$SERVICE/dist/main.js`,
    );
    // The console's one command starts each service with them too.
    const studio = readFileSync(join(root, 'scripts', 'studio.sh'), 'utf8');
    expect(studio).toContain(
      `node $(grep -vs '^#' "services/$service/node-flags") "services/$service/dist/main.js"`,
    );
  });

  it('gives the gateway a young generation of a fixed 2 x 32 MB (ADR-0029), which Node.js accepts', () => {
    const flags = serviceNodeFlags('gateway');
    expect(flags).toEqual(['--min-semi-space-size=32', '--max-semi-space-size=32']);
    const newSpaceMb = execFileSync(process.execPath, [
      ...flags,
      '-p',
      `require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576`,
    ]);
    expect(Number(String(newSpaceMb))).toBe(32);
    expect(serviceNodeFlags('scraper')).toEqual([]);
  });

  it('builds and runs on the Node.js major line that .nvmrc pins, as engines and @types/node say', () => {
    const pinnedMajor = readFileSync(join(root, '.nvmrc'), 'utf8').trim().split('.')[0];
    const images = [...dockerfile.matchAll(/^ARG NODE_IMAGE=node:(\d+)-[\w-]*slim\b/gm)].map((m) => m[1]);
    expect(images).toEqual([pinnedMajor]);
    expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\}/gm)).toHaveLength(2);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toMatch(new RegExp(`^\\^${pinnedMajor}\\.`));
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${pinnedMajor}\\.`));
  });
});
