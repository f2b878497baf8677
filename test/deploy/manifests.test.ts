import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { parse, parseAllDocuments } from "yaml";
import { readConfig } from "../../src/config.ts";
import { HEALTH_PATH, READY_PATH } from "../../src/contract.ts";
import { NGINX_CONF, NGINX_PLACEHOLDERS } from "../helpers/nginx.ts";

/**
 * The deployment files (deploy/) agree with what they deploy: the Dockerfile's port, user and
 * environment, the health paths of src/contract.ts, a configuration src/config.ts accepts, and
 * the placeholders of deploy/nginx.conf.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const DEPLOY = join(ROOT, "deploy");
const KUBERNETES = join(DEPLOY, "kubernetes");
const IMAGE = "hearthway-directory";
/** The uid of the `node` user in the official node images (the Dockerfile's USER). */
const NODE_UID = 1000;
/** How long the server takes at most to finish its requests after SIGTERM (src/server.ts, closeWithGrace). */
const SERVER_GRACE_SECONDS = 10;

/** The runtime stage of the Dockerfile: its EXPOSE, USER and literal ENV values. */
async function dockerfile(): Promise<{ expose: number; user: string; env: Record<string, string> }> {
  const text = await readFile(join(ROOT, "Dockerfile"), "utf8");
  const runtime = text.slice(text.lastIndexOf("\nFROM "));
  const env: Record<string, string> = {};
  for (const [, pairs] of runtime.matchAll(/^ENV (.+)$/gm)) {
    for (const [, name, value] of (pairs ?? "").matchAll(/(\w+)=(\S+)/g)) {
      if (name !== undefined && value !== undefined && !value.includes("$")) env[name] = value;
    }
  }
  return { expose: Number(/^EXPOSE (\d+)$/m.exec(runtime)?.[1]), user: /^USER (\S+)$/m.exec(runtime)?.[1] ?? "", env };
}

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML is walked field by field and compared with exact values.
type Yaml = any;

async function compose(): Promise<Yaml> {
  // merge: the replicas share their settings through a YAML anchor and merge keys.
  return parse(await readFile(join(DEPLOY, "compose.yaml"), "utf8"), { merge: true });
}

async function kubernetes(): Promise<Map<string, Yaml>> {
  const kinds = new Map<string, Yaml>();
  for (const file of (await readdir(KUBERNETES)).filter((name) => name.endsWith(".yaml"))) {
    for (const document of parseAllDocuments(await readFile(join(KUBERNETES, file), "utf8"))) {
      const manifest = document.toJS() as Yaml;
      kinds.set(manifest.kind, { ...manifest, file });
    }
  }
  return kinds;
}

/** Compose's durations as seconds ("15s", "1m30s"). */
function seconds(duration: string): number {
  let total = 0;
  for (const [, amount, unit] of duration.matchAll(/(\d+)(h|m|s)/g))
    total += Number(amount) * { h: 3600, m: 60, s: 1 }[unit as "h" | "m" | "s"];
  return total;
}

describe("the Dockerfile, as the deployment files rely on it", () => {
  test("runtime stage: EXPOSE equals ENV PORT, and it runs as the node user", async () => {
    const { expose, user, env } = await dockerfile();
    assert.deepEqual({ expose, port: env.PORT, host: env.HOST, user }, { expose: 3000, port: "3000", host: "0.0.0.0", user: "node" });
  });
});

describe("deploy/compose.yaml", () => {
  test("two replicas of the image built from the repository's Dockerfile, with BASE_URL the same when built and when serving", async () => {
    const { services } = await compose();
    const replicas = Object.keys(services).filter((name) => name !== "nginx");
    assert.deepEqual(replicas, ["directory-1", "directory-2"]);
    for (const name of replicas) {
      const service = services[name];
      assert.equal(service.image, IMAGE);
      assert.ok(existsSync(resolve(DEPLOY, service.build.context, "Dockerfile")), `${name}: build context without a Dockerfile`);
      assert.equal(service.build.args.BASE_URL, service.environment.BASE_URL);
    }
  });

  test("each replica's environment is a valid configuration listening on the Dockerfile's port, behind one trusted proxy", async () => {
    const { env, expose } = await dockerfile();
    const { services } = await compose();
    for (const name of ["directory-1", "directory-2"]) {
      const service = services[name];
      // Compose's ${BASE_URL:-default} as compose fills it when BASE_URL is not set.
      const environment = {
        ...env,
        ...service.environment,
        BASE_URL: service.environment.BASE_URL.replace(/^\$\{BASE_URL:-(.*)\}$/, "$1"),
      };
      const config = readConfig(environment);
      assert.deepEqual(
        { port: config.port, host: config.host, trustProxy: config.trustProxy, baseUrl: config.baseUrl, expose: service.expose },
        { port: expose, host: "0.0.0.0", trustProxy: 1, baseUrl: "http://localhost:8080", expose: [String(expose)] },
      );
    }
  });

  test("each replica's healthcheck asks /readyz on its port, and it may take longer to stop than the server's grace period", async () => {
    const { expose } = await dockerfile();
    const { services } = await compose();
    for (const name of ["directory-1", "directory-2"]) {
      const { healthcheck, stop_grace_period: grace } = services[name];
      assert.equal(healthcheck.test[0], "CMD");
      assert.match(healthcheck.test.join(" "), new RegExp(`fetch\\('http://127\\.0\\.0\\.1:${expose}${READY_PATH}'\\)`));
      assert.ok(seconds(grace) > SERVER_GRACE_SECONDS, `${name}: stop_grace_period ${grace}`);
    }
  });

  test("nginx runs deploy/nginx.conf with every placeholder set, an upstream per replica on the Dockerfile's port, and publishes only its port", async () => {
    const { expose } = await dockerfile();
    const { services } = await compose();
    const nginx = services.nginx;
    const placeholders = Object.keys(nginx.environment).filter((name) => name.startsWith("DIRECTORY_"));
    assert.deepEqual(placeholders.sort(), [...NGINX_PLACEHOLDERS].sort());
    assert.deepEqual(
      { one: nginx.environment.DIRECTORY_REPLICA_1, two: nginx.environment.DIRECTORY_REPLICA_2 },
      { one: `directory-1:${expose}`, two: `directory-2:${expose}` },
    );
    assert.equal(nginx.environment.NGINX_ENVSUBST_FILTER, "^DIRECTORY_");
    assert.deepEqual(nginx.volumes[0], "./nginx.conf:/etc/nginx/templates/default.conf.template:ro");
    assert.deepEqual(nginx.ports, [`${nginx.environment.DIRECTORY_LISTEN}:${nginx.environment.DIRECTORY_LISTEN}`]);
    assert.deepEqual(
      Object.entries(services).flatMap(([name, service]) => ((service as Yaml).ports === undefined ? [] : [name])),
      ["nginx"],
    );
    assert.deepEqual(Object.keys(nginx.depends_on), ["directory-1", "directory-2"]);

    const conf = await readFile(NGINX_CONF, "utf8");
    assert.deepEqual(
      [...conf.matchAll(/^\s*server (\S+) /gm)].map(([, address]) => address),
      [`\${DIRECTORY_REPLICA_1}`, `\${DIRECTORY_REPLICA_2}`],
    );
  });
});

describe("deploy/kubernetes", () => {
  test("kustomization.yaml lists every other manifest", async () => {
    const kinds = await kubernetes();
    const files = [...kinds.values()].map((manifest) => manifest.file as string).filter((file) => file !== "kustomization.yaml");
    assert.deepEqual([...kinds.get("Kustomization").resources].sort(), files.sort());
  });

  test("a Deployment of at least two replicas of the image, on the Dockerfile's port, with a valid configuration", async () => {
    const { env, expose } = await dockerfile();
    const deployment = (await kubernetes()).get("Deployment");
    const [container, ...others] = deployment.spec.template.spec.containers;
    assert.equal(others.length, 0);
    assert.ok(deployment.spec.replicas >= 2);
    assert.deepEqual(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels);
    assert.deepEqual(
      { image: container.image, ports: container.ports },
      { image: IMAGE, ports: [{ name: "http", containerPort: expose }] },
    );
    const environment = Object.fromEntries(container.env.map(({ name, value }: { name: string; value: string }) => [name, value]));
    const config = readConfig({ ...env, ...environment });
    assert.deepEqual(
      { port: config.port, host: config.host, trustProxy: config.trustProxy, baseUrl: config.baseUrl },
      { port: expose, host: "0.0.0.0", trustProxy: 1, baseUrl: "https://directory.example" },
    );
  });

  test("liveness and startup probe /healthz, readiness /readyz, on the container's port", async () => {
    const container = (await kubernetes()).get("Deployment").spec.template.spec.containers[0];
    assert.deepEqual(
      [container.startupProbe.httpGet, container.livenessProbe.httpGet, container.readinessProbe.httpGet],
      [
        { path: HEALTH_PATH, port: "http" },
        { path: HEALTH_PATH, port: "http" },
        { path: READY_PATH, port: "http" },
      ],
    );
  });

  test("a pod stops gracefully: preStop's sleep plus the server's grace fit in terminationGracePeriodSeconds", async () => {
    const pod = (await kubernetes()).get("Deployment").spec.template.spec;
    const command = pod.containers[0].lifecycle.preStop.exec.command;
    assert.equal(command[0], "sleep");
    assert.ok(pod.terminationGracePeriodSeconds > Number(command[1]) + SERVER_GRACE_SECONDS);
  });

  test("it runs as the image's non-root user on a read-only root filesystem, with resource requests and limits", async () => {
    const { user } = await dockerfile();
    const pod = (await kubernetes()).get("Deployment").spec.template.spec;
    const container = pod.containers[0];
    assert.equal(user, "node");
    assert.deepEqual(
      { runAsNonRoot: pod.securityContext.runAsNonRoot, runAsUser: pod.securityContext.runAsUser },
      { runAsNonRoot: true, runAsUser: NODE_UID },
    );
    assert.deepEqual(container.securityContext, {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    assert.deepEqual(Object.keys(container.resources.requests).sort(), ["cpu", "memory"]);
    assert.deepEqual(Object.keys(container.resources.limits).sort(), ["cpu", "memory"]);
  });

  test("the Service, PodDisruptionBudget and HorizontalPodAutoscaler select the Deployment's pods", async () => {
    const kinds = await kubernetes();
    const deployment = kinds.get("Deployment");
    const labels = deployment.spec.template.metadata.labels;
    const service = kinds.get("Service");
    const budget = kinds.get("PodDisruptionBudget");
    const autoscaler = kinds.get("HorizontalPodAutoscaler");
    assert.deepEqual(service.spec.selector, labels);
    assert.deepEqual(service.spec.ports, [{ name: "http", port: 80, targetPort: "http" }]);
    assert.deepEqual(
      { api: budget.apiVersion, minAvailable: budget.spec.minAvailable, selector: budget.spec.selector.matchLabels },
      {
        api: "policy/v1",
        minAvailable: 1,
        selector: labels,
      },
    );
    assert.deepEqual(
      { api: autoscaler.apiVersion, target: autoscaler.spec.scaleTargetRef, metric: autoscaler.spec.metrics[0].resource.name },
      { api: "autoscaling/v2", target: { apiVersion: "apps/v1", kind: "Deployment", name: deployment.metadata.name }, metric: "cpu" },
    );
    assert.ok(autoscaler.spec.minReplicas >= 2 && autoscaler.spec.maxReplicas > autoscaler.spec.minReplicas);
  });
});
