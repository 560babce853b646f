import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { BlockList, isIPv6 } from "node:net";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { z } from "zod";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { ConfigMap, type IConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Secret, type ISecret } from "kubernetes-models/v1/Secret";
import { Service, type IService } from "kubernetes-models/v1/Service";
import { ServiceAccount, type IServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { ResourceRequirements } from "kubernetes-models/v1/ResourceRequirements";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IPodTemplateSpec } from "kubernetes-models/v1/PodTemplateSpec";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1/Deployment";
import { StatefulSet, type IStatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { Job, type IJob } from "kubernetes-models/batch/v1/Job";
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { PodDisruptionBudget, type IPodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { Ingress, type IIngress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy, type INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import type { INetworkPolicyPeer } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer";
import type { INetworkPolicyPort } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort";
import { ScaledObject, type IScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject";
import { ServiceMonitor, type IServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import { ClusterIssuer } from "@kubernetes-models/cert-manager/cert-manager.io/v1/ClusterIssuer";
import { BUS_ACCESS, BUS_PROCESSES, busNames } from "@tollgate/proto";
import { loadConfig, loadServiceConfig, migrationConfigSchema, natsPermissions, serviceConfigSchema } from "@tollgate/kit";
import { authService } from "@tollgate/auth";
import { organizationService } from "@tollgate/organization";
import { billingService } from "@tollgate/billing";
import { webhookDispatcherService } from "@tollgate/webhook-dispatcher";
import { gatewayEnv, loadGatewayConfig } from "../gateway/src/config.js";
import { deploymentSecrets } from "../launcher/src/config.js";
import { natsAuthorization, natsPasswordVariable } from "../launcher/src/nats-authorization.js";
import { billingEventsConsumer } from "../services/webhook-dispatcher/src/events/consumer.js";
import { composeRedisArguments, redisUsers } from "./compose.js";
import { DEPLOYABLES, effectiveLines, root, stages } from "./dockerfile.js";

// The manifests as `kubectl apply -k` would send them, checked without a cluster: every object
// against the Kubernetes (and the CRDs') OpenAPI schemas, unknown fields refused; then what Tollgate
// needs of them, read from the same configuration schemas the processes load.

const Manifest = z
  .object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata: z.object({ name: z.string(), namespace: z.string().optional(), labels: z.record(z.string(), z.string()).optional() }).loose(),
  })
  .loose();
type Manifest = z.infer<typeof Manifest>;

/** A model class of kubernetes-models: its prototype's validate() checks `this` against the kind's schema. */
type Model = { prototype: { validate(): void } };
const MODELS: Record<string, Model> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "v1/ServiceAccount": ServiceAccount,
  "v1/PersistentVolumeClaim": PersistentVolumeClaim,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "batch/v1/Job": Job,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/Ingress": Ingress,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
  "monitoring.coreos.com/v1/ServiceMonitor": ServiceMonitor,
  "cert-manager.io/v1/ClusterIssuer": ClusterIssuer,
};
/** API groups a stock cluster (kind, minikube) serves without any CRD installed. */
const BUILT_IN_GROUPS = new Set(["", "apps", "batch", "autoscaling", "policy", "networking.k8s.io"]);

/**
 * The paths of `object`'s fields its kind's schema does not know. kubernetes-models' validators check
 * types, enums and required fields but let unknown fields through; every field a schema knows is one
 * its validator reads, and maps are enumerated, so a field never read nor enumerated is unknown.
 */
function validateStrictly(model: Model, object: object): string[] {
  const seen = new WeakMap<object, { read: Set<string>; enumerated: boolean }>();
  const proxies = new WeakMap<object, object>();
  const watch = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    const existing = proxies.get(value);
    if (existing) return existing;
    const record = { read: new Set<string>(), enumerated: false };
    seen.set(value, record);
    const proxy = new Proxy(value, {
      get(target, key) {
        if (typeof key === "string") record.read.add(key);
        return watch(Reflect.get(target, key));
      },
      has(target, key) {
        if (typeof key === "string") record.read.add(key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        record.enumerated = true;
        return Reflect.ownKeys(target);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  model.prototype.validate.call(watch(object));
  const unknown: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value === null || typeof value !== "object") return;
    const record = seen.get(value);
    if (!record) {
      unknown.push(path);
      return;
    }
    if (!Array.isArray(value) && !record.enumerated) unknown.push(...Object.keys(value).filter((key) => !record.read.has(key)).map((key) => `${path}/${key}`));
    for (const [key, child] of Object.entries(value)) walk(child, `${path}/${key}`);
  };
  walk(object, "");
  return unknown;
}

/** No npm package carries CloudNativePG's CRD schema: its Cluster is checked where it holds Kubernetes types. */
function validateCloudNativePgCluster(object: Manifest): string[] {
  const spec = z.object({ resources: z.record(z.string(), z.unknown()) }).loose().parse(object.spec);
  return validateStrictly(ResourceRequirements, spec.resources).map((path) => `/spec/resources${path}`);
}

/** `kubectl kustomize` of a directory under k8s/, every object checked against its schema. */
function render(directory: string): Manifest[] {
  const output = execFileSync("kubectl", ["kustomize", root(`k8s/${directory}`)], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output).map((document) => {
    const manifest = Manifest.parse(document.toJS());
    // kustomize breaks long base64 values over lines, which the API server's decoder skips and the schema's "byte" format does not.
    if (manifest.kind === "Secret") manifest.data = z.record(z.string(), z.string().transform((value) => value.replace(/\s/g, ""))).optional().parse(manifest.data);
    const model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
    const unknown =
      manifest.apiVersion === "postgresql.cnpg.io/v1" && manifest.kind === "Cluster"
        ? validateCloudNativePgCluster(manifest)
        : model
          ? validateStrictly(model, manifest)
          : [`no schema for ${manifest.apiVersion} ${manifest.kind}`];
    if (unknown.length > 0) throw new Error(`${manifest.kind} ${manifest.metadata.name} has fields its schema does not know: ${unknown.join(", ")}`);
    return manifest;
  });
}

const OVERLAYS = ["dev", "prod"] as const;
type Overlay = (typeof OVERLAYS)[number];
const rendered: Record<Overlay, Manifest[]> = { dev: render("overlays/dev"), prod: render("overlays/prod") };

/** The objects of one kind; each has passed its kind's schema above, so it has that kind's shape. */
function all<T>(overlay: Overlay, kind: string): (T & { metadata: { name: string } })[] {
  return rendered[overlay].filter((manifest) => manifest.kind === kind) as unknown[] as (T & { metadata: { name: string } })[];
}
function one<T>(overlay: Overlay, kind: string, name: string): T & { metadata: { name: string } } {
  const found = all<T>(overlay, kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`${overlay} has no ${kind} ${name}`);
  return found;
}

type Workload = { kind: string; name: string; template: IPodTemplateSpec };
/** Everything that runs pods, with the pods' template. */
function workloads(overlay: Overlay): Workload[] {
  return [...all<IDeployment>(overlay, "Deployment"), ...all<IStatefulSet>(overlay, "StatefulSet"), ...all<IJob>(overlay, "Job")].flatMap((object) =>
    object.spec?.template ? [{ kind: object.kind, name: object.metadata.name, template: object.spec.template }] : [],
  );
}
const containersOf = (template: IPodTemplateSpec) => [...(template.spec?.initContainers ?? []), ...(template.spec?.containers ?? [])];

/** What these tests read of a service's configuration. */
interface ServiceSettings {
  HOST: string;
  SHUTDOWN_TIMEOUT_MS: number;
  PORT: number;
  METRICS_PORT?: number;
  DATABASE_URL: string;
  NATS_URL: string;
  DATABASE_POOL_MAX: number;
}
/** Each service's configuration, as the service itself loads it from an environment. */
const SERVICES: Record<string, (environment: Record<string, string>) => ServiceSettings> = {
  auth: (environment) => loadServiceConfig(authService, environment),
  organization: (environment) => loadServiceConfig(organizationService, environment),
  billing: (environment) => loadServiceConfig(billingService, environment),
  "webhook-dispatcher": (environment) => loadServiceConfig(webhookDispatcherService, environment),
};
const SERVICE_NAMES = Object.keys(SERVICES);
const DEFINITIONS: Record<string, Parameters<typeof serviceConfigSchema>[0]> = { auth: authService, organization: organizationService, billing: billingService, "webhook-dispatcher": webhookDispatcherService };

/** The config schema a Tollgate container's process loads: its command's on the schema (migrate, wait-for-migrations), or, serving, its deployable's. */
function configSchemaOf(container: IContainer): z.ZodObject {
  const target = targetOf(container.image) ?? "";
  if (target === "gateway") return gatewayEnv;
  const definition = DEFINITIONS[target];
  if (!definition) throw new Error(`${container.name} runs no Tollgate process`);
  const command = container.command?.[2] ?? "serve";
  return command === "serve" ? serviceConfigSchema(definition) : migrationConfigSchema(definition.schema);
}
const serviceConfig = (overlay: Overlay, name: string): ServiceSettings => {
  const load = SERVICES[name];
  if (!load) throw new Error(`${name} is no service`);
  return load(environmentOf(overlay, mainContainer(overlay, name)));
};

/** The Secrets a person makes before applying: `tollgate` from `npm run secrets`, and for prod the rest as k8s/README.md says. */
const made = deploymentSecrets();
const SECRETS_MADE_BY_HAND: Record<Overlay, Record<string, Record<string, string>>> = {
  dev: { tollgate: made },
  prod: {
    tollgate: made,
    "tollgate-connections": {
      NATS_URL: "nats://nats:4222",
      REDIS_GATEWAY_PASSWORD: "g".repeat(48),
      GATEWAY_REDIS_URL: `redis://gateway:${"g".repeat(48)}@redis:6379`,
      REDIS_BILLING_PASSWORD: "b".repeat(48),
      BILLING_REDIS_URL: `redis://billing:${"b".repeat(48)}@redis:6379`,
    },
    "tollgate-billing": { S3_ACCESS_KEY_ID: "AKIAEXAMPLE", S3_SECRET_ACCESS_KEY: "s".repeat(40) },
    // Written by CloudNativePG for the Cluster tollgate-db.
    "tollgate-db-app": { uri: "postgresql://tollgate:p@tollgate-db-rw.tollgate:5432/tollgate" },
  },
};

/** A Secret's or ConfigMap's data as the pod sees it: rendered ones, else those made by hand. */
function secretData(overlay: Overlay, name: string): Record<string, string> | undefined {
  const secret = all<ISecret>(overlay, "Secret").find((object) => object.metadata.name === name);
  if (secret) return Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, "base64").toString()]));
  return SECRETS_MADE_BY_HAND[overlay][name];
}
function configMapData(overlay: Overlay, name: string): Record<string, string> | undefined {
  return all<IConfigMap>(overlay, "ConfigMap").find((object) => object.metadata.name === name)?.data;
}

/** The environment a container starts with, as the kubelet builds it; a reference that cannot be met throws. */
function environmentOf(overlay: Overlay, container: IContainer): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const reference = source.configMapRef ?? source.secretRef;
    const data = source.configMapRef ? configMapData(overlay, reference?.name ?? "") : secretData(overlay, reference?.name ?? "");
    if (!data && !reference?.optional) throw new Error(`${container.name} needs ${reference?.name}`);
    Object.assign(environment, data);
  }
  for (const variable of container.env ?? []) {
    const { configMapKeyRef: configKey, secretKeyRef: secretKey } = variable.valueFrom ?? {};
    const value = secretKey ? secretData(overlay, secretKey.name ?? "")?.[secretKey.key] : configKey ? configMapData(overlay, configKey.name ?? "")?.[configKey.key] : variable.value;
    if (value === undefined) throw new Error(`${container.name}: ${variable.name} refers to nothing`);
    environment[variable.name] = value;
  }
  return environment;
}

/** The variables a container takes from Secrets: each key of a Secret it takes whole, and each it takes by key. */
function secretVariables(overlay: Overlay, container: IContainer): string[] {
  const whole = (container.envFrom ?? []).flatMap((source) => (source.secretRef ? Object.keys(secretData(overlay, source.secretRef.name ?? "") ?? {}) : []));
  const byKey = (container.env ?? []).flatMap((variable) => (variable.valueFrom?.secretKeyRef ? [variable.name] : []));
  return [...new Set([...whole, ...byKey])];
}

/** The deployable a Tollgate container belongs to, from its image (tollgate/<target>:<release>). */
const targetOf = (image = "") => /(?:^|\/)tollgate\/([a-z-]+)(?::[\w.-]+)?$/.exec(image)?.[1];
const tagOf = (image = "") => /:([\w.-]+)$/.exec(image)?.[1];
const tollgateContainers = (overlay: Overlay) => workloads(overlay).flatMap((workload) => containersOf(workload.template).filter((container) => targetOf(container.image)).map((container) => ({ workload, container })));
const deploymentOf = (overlay: Overlay, name: string) => one<IDeployment>(overlay, "Deployment", name);
const mainContainer = (overlay: Overlay, name: string): IContainer => {
  const container = deploymentOf(overlay, name).spec?.template.spec?.containers.find((candidate) => candidate.name === name);
  if (!container) throw new Error(`${name} has no container of its name`);
  return container;
};
const portOf = (container: IContainer, name: string) => container.ports?.find((port) => port.name === name)?.containerPort;

describe.each(OVERLAYS)("k8s/overlays/%s", (overlay) => {
  it("renders objects that all pass their schemas, in the tollgate namespace", () => {
    expect(rendered[overlay].length).toBeGreaterThan(40);
    for (const manifest of rendered[overlay]) {
      if (manifest.kind !== "Namespace") expect(manifest.metadata.namespace, `${manifest.kind} ${manifest.metadata.name}`).toBe("tollgate");
    }
    expect(one<{ metadata: { labels?: Record<string, string> } }>(overlay, "Namespace", "tollgate").metadata.labels?.["pod-security.kubernetes.io/enforce"]).toBe("restricted");
  });

  it("gives every process a configuration its own schema accepts, with every dependency set rather than defaulted", () => {
    for (const { workload, container } of tollgateContainers(overlay)) {
      const where = `${workload.name}/${container.name}`;
      expect(() => loadConfig(configSchemaOf(container), environmentOf(overlay, container)), where).not.toThrow();
      if (targetOf(container.image) !== "gateway") expect(Object.keys(environmentOf(overlay, container)), where).toContain("DATABASE_URL");
    }
    for (const name of SERVICE_NAMES) {
      const config = serviceConfig(overlay, name);
      expect(config.HOST).toBe("0.0.0.0");
      expect(config.PORT).toBe(portOf(mainContainer(overlay, name), "http"));
      expect(config.METRICS_PORT).toBe(portOf(mainContainer(overlay, name), "metrics"));
      expect(inClusterHost(overlay, config.DATABASE_URL), `${name} DATABASE_URL`).toBe(true);
      expect(inClusterHost(overlay, config.NATS_URL), `${name} NATS_URL`).toBe(true);
    }
    for (const name of ["gateway", "billing"]) expect(inClusterHost(overlay, environmentOf(overlay, mainContainer(overlay, name)).REDIS_URL ?? ""), `${name} REDIS_URL`).toBe(true);

    const gateway = loadGatewayConfig(environmentOf(overlay, mainContainer(overlay, "gateway")));
    expect(gateway.PORT).toBe(portOf(mainContainer(overlay, "gateway"), "http"));
    expect(inClusterHost(overlay, gateway.NATS_URL)).toBe(true);
    const upstreams: Record<string, string> = { auth: gateway.AUTH_URL, organization: gateway.ORGANIZATION_URL, billing: gateway.BILLING_URL, "webhook-dispatcher": gateway.WEBHOOKS_URL };
    for (const name of SERVICE_NAMES) {
      const port = one<IService>(overlay, "Service", name).spec?.ports?.find((candidate) => candidate.name === "http")?.port;
      expect(upstreams[name]).toBe(`http://${name}:${port}`);
    }
  });

  it("gives each process only the secrets its config schema declares, one key at a time", () => {
    const tollgateKeys = Object.keys(secretData(overlay, "tollgate") ?? {});
    const held: Record<string, string[]> = {};
    for (const { workload, container } of tollgateContainers(overlay)) {
      const where = `${workload.name}/${container.name}`;
      const declared = Object.keys(configSchemaOf(container).shape);
      for (const source of container.envFrom ?? []) if (source.secretRef) expect(source.secretRef.name, `${where} takes a whole Secret`).toBe(`tollgate-${targetOf(container.image)}`);
      // Whatever reaches it from a Secret, whole or by key, is a setting its process reads.
      expect(secretVariables(overlay, container).filter((variable) => !declared.includes(variable)), where).toEqual([]);
      const keys = (container.env ?? []).flatMap((variable) => (variable.valueFrom?.secretKeyRef?.name === "tollgate" ? [variable.valueFrom.secretKeyRef.key] : []));
      // Its NATS password is the one key read by another name (NATS_PASSWORD), and the process's own.
      const natsPassword = declared.includes("NATS_PASSWORD") ? [natsPasswordVariable(targetOf(container.image) ?? "")] : [];
      expect(keys.sort(), where).toEqual([...tollgateKeys.filter((key) => declared.includes(key)), ...natsPassword].sort());
      held[where] = keys;
    }
    // A migration, and the init container that waits for it, need the database alone.
    for (const name of SERVICE_NAMES) {
      expect(held[`${jobName(overlay, name)}/migrate`], name).toEqual([]);
      expect(held[`${name}/wait-for-migrations`], name).toEqual([]);
    }
    expect(held["gateway/gateway"]).toEqual(["AUTH_SECRET", "GATEWAY_NATS_PASSWORD", "IDENTITY_SIGNING_KEY"]);
  });

  it("gives each deployable a NATS user of its own, which every NATS server knows by the same password", () => {
    const nats = one<IStatefulSet>(overlay, "StatefulSet", "nats").spec?.template.spec?.containers.find((container) => container.name === "nats");
    // Its secrets, by the names its configuration reads them (its own name comes from the pod, not a Secret).
    const server = Object.fromEntries(
      (nats?.env ?? []).flatMap(({ name, valueFrom }) => (valueFrom?.secretKeyRef ? [[name, secretData(overlay, valueFrom.secretKeyRef.name ?? "")?.[valueFrom.secretKeyRef.key]]] : [])),
    );
    for (const name of DEPLOYABLES) {
      const own = environmentOf(overlay, mainContainer(overlay, name));
      const password = own.NATS_PASSWORD ?? "";
      expect(password, name).toBe(made[natsPasswordVariable(name)]);
      expect(server[natsPasswordVariable(name)], name).toBe(password);
      // Its user is its name, not one the URL could name for it.
      expect(new URL(own.NATS_URL ?? "").username, name).toBe("");
    }
    const passwords = DEPLOYABLES.map((name) => made[natsPasswordVariable(name)]);
    expect(new Set(passwords).size).toBe(DEPLOYABLES.length);
  });

  it("gives NATS the users and permissions proto/src/bus-access.ts makes, for this NATS_PREFIX", () => {
    const config = all<IConfigMap>(overlay, "ConfigMap").find((candidate) => candidate.metadata.name.startsWith("nats-config"))?.data ?? {};
    const prefix = loadGatewayConfig(environmentOf(overlay, mainContainer(overlay, "gateway"))).NATS_PREFIX;
    const names = busNames(prefix);
    expect(config["nats.conf"]).toContain("include ./authorization.conf");
    expect(config["authorization.conf"], "npm run nats-config writes it anew").toBe(natsAuthorization(prefix));
    // What those permissions let each process do to another's events, stream and replies: nothing.
    for (const process of BUS_PROCESSES) {
      const { publish, subscribe } = natsPermissions(process, names);
      const mayPublish = (subject: string) => publish.some((pattern) => subjectMatches(pattern, subject));
      for (const owner of BUS_PROCESSES) {
        for (const family of BUS_ACCESS[owner].events) expect(mayPublish(names.eventSubject(`${family}.anything`)), `${process} publishes ${owner}'s ${family}.*`).toBe(owner === process);
        if (owner !== process) expect(subscribe.some((pattern) => subjectMatches(pattern, `${names.replyInbox(owner)}.reply`)), `${process} hears ${owner}'s replies`).toBe(false);
      }
      for (const verb of ["DELETE", "PURGE"]) expect(mayPublish(`$JS.API.STREAM.${verb}.${names.eventStream}`), `${process} may ${verb} the stream`).toBe(false);
      expect(mayPublish(`$JS.API.CONSUMER.CREATE.${names.eventStream}.spy.${names.allEvents}`), `${process} makes a durable of another name`).toBe(false);
    }
  });

  it("selects exactly one workload with each Service, on ports its containers declare", () => {
    for (const service of all<IService>(overlay, "Service")) {
      const selector = service.spec?.selector ?? {};
      const selected = workloads(overlay).filter((workload) => matchesLabels(selector, workload.template.metadata?.labels ?? {}));
      expect(selected.map((workload) => workload.kind), service.metadata.name).toEqual([expect.stringMatching(/^(Deployment|StatefulSet)$/)]);
      const ports = containersOf(selected[0]?.template ?? {}).flatMap((container) => container.ports ?? []);
      for (const port of service.spec?.ports ?? []) {
        const target = port.targetPort ?? port.port;
        expect(ports.some((declared) => declared.name === target || declared.containerPort === target), `${service.metadata.name}:${port.name}`).toBe(true);
      }
    }
  });

  it("probes each deployable's readiness and liveness on its API port, and stops it after endpoints drain", () => {
    for (const name of DEPLOYABLES) {
      const container = mainContainer(overlay, name);
      expect(container.startupProbe?.httpGet).toEqual({ path: "/readyz", port: "http" });
      expect(container.readinessProbe?.httpGet).toEqual({ path: "/readyz", port: "http" });
      expect(container.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: "http" });
      const drainSeconds = container.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(drainSeconds).toBeGreaterThanOrEqual(5);
      // The kit gives up 5 s after SHUTDOWN_TIMEOUT_MS (and any SHUTDOWN_DRAIN_MS); the kubelet's SIGKILL must come later.
      const environment = environmentOf(overlay, container);
      const { SHUTDOWN_TIMEOUT_MS } = name === "gateway" ? loadGatewayConfig(environment) : serviceConfig(overlay, name);
      const deadlineSeconds = (Number(environment.SHUTDOWN_DRAIN_MS ?? 0) + SHUTDOWN_TIMEOUT_MS) / 1000 + 5;
      expect(deploymentOf(overlay, name).spec?.template.spec?.terminationGracePeriodSeconds ?? 30).toBeGreaterThanOrEqual(drainSeconds + deadlineSeconds);
      expect(deploymentOf(overlay, name).spec?.template.metadata?.annotations?.["prometheus.io/port"]).toBe(String(portOf(container, "metrics")));
    }
  });

  it("runs only Dockerfile targets of Tollgate's own, each deployable its own with the release's tag", () => {
    const release = tagOf(mainContainer(overlay, "gateway").image);
    expect(release).toMatch(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/);
    for (const { workload, container } of tollgateContainers(overlay)) {
      const target = targetOf(container.image) ?? "";
      expect(stages.has(target) && (DEPLOYABLES as readonly string[]).includes(target), `${workload.name} runs ${container.image}`).toBe(true);
      expect(tagOf(container.image), `${workload.name}/${container.name}`).toBe(release);
      const entry = container.command?.[1] ?? (JSON.parse(effectiveLines(target).filter((line) => line.startsWith("CMD ")).at(-1)?.slice(4) ?? "[]") as string[])[1] ?? "";
      expect(entry.startsWith(target === "gateway" ? "gateway/dist/" : `services/${target}/dist/`), `${workload.name} runs its own image's entry`).toBe(true);
      expect(existsSync(root(entry.replace("/dist/", "/src/").replace(/\.js$/, ".ts"))), entry).toBe(true);
    }
    for (const name of DEPLOYABLES) expect(targetOf(mainContainer(overlay, name).image)).toBe(name);
  });

  it("migrates each service's schema in a Job named for the release, which its pods wait for", () => {
    const release = tagOf(mainContainer(overlay, "gateway").image) ?? "";
    for (const name of SERVICE_NAMES) {
      const job = one<IJob>(overlay, "Job", jobName(overlay, name));
      expect(job.metadata.name).toBe(`migrate-${name}-${release}`);
      const [migrate] = job.spec?.template.spec?.containers ?? [];
      expect(migrate?.command).toEqual(["node", `services/${name}/dist/main.js`, "migrate"]);
      expect(migrate?.image).toBe(mainContainer(overlay, name).image);
      const [wait, ...others] = deploymentOf(overlay, name).spec?.template.spec?.initContainers ?? [];
      expect(others).toEqual([]);
      expect(wait?.command).toEqual(["node", `services/${name}/dist/main.js`, "wait-for-migrations"]);
      expect(wait?.image).toBe(mainContainer(overlay, name).image);
    }
    expect(all<IJob>(overlay, "Job")).toHaveLength(SERVICE_NAMES.length);
  });

  it("runs nothing as root, privileged, writable or with a service account token", () => {
    for (const { kind, name, template } of workloads(overlay)) {
      const pod = template.spec;
      expect(pod?.automountServiceAccountToken, `${kind} ${name}`).toBe(false);
      expect(pod?.securityContext?.seccompProfile?.type, `${kind} ${name}`).toBe("RuntimeDefault");
      expect(pod?.hostNetwork ?? false).toBe(false);
      for (const container of containersOf(template)) {
        const where = `${kind} ${name}/${container.name}`;
        expect(container.securityContext?.runAsNonRoot ?? pod?.securityContext?.runAsNonRoot, where).toBe(true);
        expect(container.securityContext?.runAsUser ?? pod?.securityContext?.runAsUser, where).toBeGreaterThan(0);
        expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false);
        expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true);
        expect(container.securityContext?.capabilities?.drop, where).toEqual(["ALL"]);
        expect(container.resources?.requests?.memory && container.resources.limits?.memory, `${where} has memory requests and limits`).toBeTruthy();
        // Tollgate's images run as their `node` user.
        if (targetOf(container.image)) expect(pod?.securityContext?.runAsUser, where).toBe(1000);
      }
    }
    for (const account of all<IServiceAccount>(overlay, "ServiceAccount")) expect(account.automountServiceAccountToken, account.metadata.name).toBe(false);
  });

  it("spreads each deployable's replicas over nodes and zones", () => {
    for (const name of DEPLOYABLES) {
      const keys = (deploymentOf(overlay, name).spec?.template.spec?.topologySpreadConstraints ?? []).map((constraint) => {
        expect(constraint.matchLabelKeys).toContain("app.kubernetes.io/name");
        return constraint.topologyKey;
      });
      expect(keys.sort()).toEqual(["kubernetes.io/hostname", "topology.kubernetes.io/zone"]);
    }
  });

  it("allows exactly the traffic the architecture needs", () => {
    expect(allowedTraffic(overlay)).toEqual(expectedTraffic(overlay));
  });

  it("lets only the gateway and billing into Redis, each as the user docker-compose.yml defines, with the password its URL carries", () => {
    const redis = mainContainer(overlay, "redis");
    const redisEnvironment = environmentOf(overlay, redis);
    // The kubelet fills in $(NAME) from the container's environment.
    const args = (redis.args ?? []).slice(1).map((argument) => argument.replace(/\$\((\w+)\)/g, (_all, name: string) => redisEnvironment[name] ?? ""));
    const users = redisUsers(args);
    const passwordless = (rules: string[] = []) => rules.map((rule) => (rule.startsWith(">") ? ">" : rule));
    const composeUsers = redisUsers(composeRedisArguments({ REDIS_GATEWAY_PASSWORD: "gateway's", REDIS_BILLING_PASSWORD: "billing's" }));
    expect([...users.keys()].sort()).toEqual([...composeUsers.keys()].sort());
    for (const [name, rules] of composeUsers) expect(passwordless(users.get(name)), name).toEqual(passwordless(rules));
    const using = DEPLOYABLES.filter((name) => "REDIS_URL" in environmentOf(overlay, mainContainer(overlay, name)));
    expect(using.sort()).toEqual(["billing", "gateway"]);
    for (const name of using) {
      const url = new URL(environmentOf(overlay, mainContainer(overlay, name)).REDIS_URL ?? "");
      expect([url.username, users.get(name)], name).toEqual([name, expect.arrayContaining(["on", `>${url.password}`])]);
      expect(url.password.length, name).toBeGreaterThan(0);
    }
    for (const probe of [redis.readinessProbe, redis.livenessProbe]) expect(probe?.exec?.command?.join(" ")).toContain('--user gateway --pass "$REDIS_GATEWAY_PASSWORD" ping');
  });
});

describe("k8s/overlays/dev", () => {
  it("needs no CRDs and, beside itself, only the Secret that `npm run secrets` fills", () => {
    for (const manifest of rendered.dev) expect(BUILT_IN_GROUPS.has(manifest.apiVersion.includes("/") ? manifest.apiVersion.split("/")[0] ?? "" : ""), `${manifest.apiVersion} ${manifest.kind}`).toBe(true);
    const referenced = workloads("dev").flatMap(({ template }) => [
      ...containersOf(template).flatMap((container) => [
        ...(container.env ?? []).flatMap((variable) => (variable.valueFrom?.secretKeyRef ? [variable.valueFrom.secretKeyRef] : [])),
        ...(container.envFrom ?? []).flatMap((source) => (source.secretRef ? [source.secretRef] : [])),
      ]),
      ...(template.spec?.volumes ?? []).flatMap((volume) => (volume.secret ? [{ name: volume.secret.secretName, optional: volume.secret.optional }] : [])),
    ]);
    const renderedSecrets = new Set(all<ISecret>("dev", "Secret").map((secret) => secret.metadata.name));
    const needed = new Set(referenced.filter((reference) => !reference.optional && !renderedSecrets.has(reference.name ?? "")).map((reference) => reference.name));
    expect([...needed]).toEqual(["tollgate"]);
    expect(Object.keys(SECRETS_MADE_BY_HAND.dev.tollgate ?? {}).sort()).toEqual(
      ["AUTH_SECRET", "FILE_URL_SECRET", "IDENTITY_SIGNING_KEY", "IDENTITY_VERIFY_KEYS", "REDIS_BILLING_PASSWORD", "REDIS_GATEWAY_PASSWORD", "WEBHOOK_SECRET_KEYS", ...DEPLOYABLES.map(natsPasswordVariable)].sort(),
    );
  });

  it("runs one replica of everything, without autoscalers, Postgres, NATS and Redis inside, files on a volume", () => {
    for (const deployment of all<IDeployment>("dev", "Deployment")) expect(deployment.spec?.replicas ?? 1, deployment.metadata.name).toBe(1);
    for (const set of all<IStatefulSet>("dev", "StatefulSet")) expect(set.spec?.replicas, set.metadata.name).toBe(1);
    expect(all<IHorizontalPodAutoscaler>("dev", "HorizontalPodAutoscaler")).toEqual([]);
    const billing = environmentOf("dev", mainContainer("dev", "billing"));
    expect(billing.FILE_STORAGE).toBe("local");
    const mount = mainContainer("dev", "billing").volumeMounts?.find((candidate) => candidate.mountPath === billing.FILES_DIR);
    const volume = deploymentOf("dev", "billing").spec?.template.spec?.volumes?.find((candidate) => candidate.name === mount?.name);
    expect(volume?.persistentVolumeClaim?.claimName).toBe("billing-files");
    one<object>("dev", "PersistentVolumeClaim", "billing-files");
    // The in-cluster Postgres takes the credentials the services' URL carries.
    const connections = secretData("dev", connectionsSecret("dev")) ?? {};
    expect(new URL(connections.DATABASE_URL ?? "").password).toBe(connections.POSTGRES_PASSWORD);
    expect(new URL(connections.GATEWAY_REDIS_URL ?? "").password).toBe(connections.REDIS_GATEWAY_PASSWORD);
    expect(new URL(connections.BILLING_REDIS_URL ?? "").password).toBe(connections.REDIS_BILLING_PASSWORD);
  });
});

describe("k8s/overlays/prod", () => {
  it("keeps at least two replicas of each deployable, with a disruption budget and one autoscaler (HPA or KEDA)", () => {
    const autoscalers = [
      ...all<IHorizontalPodAutoscaler>("prod", "HorizontalPodAutoscaler").map((hpa) => ({ target: hpa.spec?.scaleTargetRef.name, min: hpa.spec?.minReplicas ?? 1 })),
      ...all<IScaledObject>("prod", "ScaledObject").map((scaled) => ({ target: scaled.spec?.scaleTargetRef.name, min: scaled.spec?.minReplicaCount ?? 0 })),
    ];
    for (const name of DEPLOYABLES) {
      const scaling = autoscalers.filter((autoscaler) => autoscaler.target === name);
      expect(scaling, name).toHaveLength(1);
      expect(scaling[0]?.min, name).toBeGreaterThanOrEqual(2);
      // Replicas are the autoscaler's alone: an applied count would undo its scaling at every apply.
      expect(deploymentOf("prod", name).spec?.replicas, name).toBeUndefined();
      const budgets = all<IPodDisruptionBudget>("prod", "PodDisruptionBudget").filter((budget) => matchesSelector(budget.spec?.selector, deploymentOf("prod", name).spec?.template.metadata?.labels ?? {}));
      expect(budgets.map((budget) => budget.spec?.maxUnavailable), name).toEqual([1]);
    }
  });

  it("scales the webhook dispatcher on its own JetStream consumer's lag", () => {
    const scaled = one<IScaledObject>("prod", "ScaledObject", "webhook-dispatcher");
    const environment = environmentOf("prod", mainContainer("prod", "webhook-dispatcher"));
    const config = loadServiceConfig(webhookDispatcherService, environment);
    // The dispatcher's consumer as the running service defines it.
    const consumer = billingEventsConsumer(() => undefined);
    const trigger = scaled.spec?.triggers.find((candidate) => candidate.type === "nats-jetstream");
    expect(trigger?.metadata).toMatchObject({ stream: busNames(config.NATS_PREFIX).eventStream, consumer: consumer.name, account: "$G" });
    expect(trigger?.metadata?.natsServerMonitoringEndpoint).toBe(`nats-headless.tollgate.svc.cluster.local:${portOfStatefulSet("prod", "nats", "monitor")}`);
    expect(scaled.spec?.triggers.map((candidate) => candidate.type).sort()).toEqual(["cpu", "nats-jetstream"]);
  });

  it("keeps three copies of the event stream on a three-server NATS cluster with its own volumes", () => {
    const nats = one<IStatefulSet>("prod", "StatefulSet", "nats");
    expect(nats.spec?.replicas).toBe(3);
    expect(nats.spec?.volumeClaimTemplates?.map((claim) => claim.metadata?.name)).toEqual(["data"]);
    for (const name of DEPLOYABLES) {
      const environment = environmentOf("prod", mainContainer("prod", name));
      expect(environment.NATS_STREAM_REPLICAS, name).toBe("3");
    }
  });

  it("gives CloudNativePG's two instances room for every connection the services can open", () => {
    const cluster = z
      .object({ spec: z.object({ instances: z.number(), postgresql: z.object({ parameters: z.object({ max_connections: z.string() }) }) }) })
      .parse(rendered.prod.find((manifest) => manifest.kind === "Cluster"));
    expect(cluster.spec.instances).toBe(2);
    // Each replica: its pool and the outbox relay's LISTEN connection; at most maxReplicas and, during
    // a rollout, one surge pod more; each migration Job: 3 (kit's migrate). Three are the superuser's.
    const budget = SERVICE_NAMES.reduce((sum, name) => {
      const hpa = all<IHorizontalPodAutoscaler>("prod", "HorizontalPodAutoscaler").find((candidate) => candidate.spec?.scaleTargetRef.name === name);
      const scaled = all<IScaledObject>("prod", "ScaledObject").find((candidate) => candidate.spec?.scaleTargetRef.name === name);
      const maxReplicas = hpa?.spec?.maxReplicas ?? scaled?.spec?.maxReplicaCount ?? 0;
      const surge = Number(deploymentOf("prod", name).spec?.strategy?.rollingUpdate?.maxSurge ?? 1);
      const pool = serviceConfig("prod", name).DATABASE_POOL_MAX;
      return sum + (maxReplicas + surge) * (pool + 1) + 3;
    }, 0);
    expect(budget).toBe(342);
    expect(Number(cluster.spec.postgresql.parameters.max_connections) - 3).toBeGreaterThanOrEqual(budget);
  });

  it("serves https at PUBLIC_URL with cert-manager's certificate, trusting the ingress controller's forwarding", () => {
    const ingress = one<IIngress>("prod", "Ingress", "tollgate");
    const gateway = loadGatewayConfig(environmentOf("prod", mainContainer("prod", "gateway")));
    const host = new URL(gateway.PUBLIC_URL).hostname;
    expect(new URL(gateway.PUBLIC_URL).protocol).toBe("https:");
    expect(ingress.spec?.tls).toEqual([{ hosts: [host], secretName: "tollgate-tls" }]);
    expect(ingress.spec?.rules?.map((rule) => rule.host)).toEqual([host]);
    const issuer = render("cluster-issuer").find((manifest) => manifest.kind === "ClusterIssuer");
    expect(ingress.metadata?.annotations?.["cert-manager.io/cluster-issuer"]).toBe(issuer?.metadata.name);
    expect(gateway.TRUSTED_PROXIES.length).toBeGreaterThan(0);
    const billing = environmentOf("prod", mainContainer("prod", "billing"));
    expect([billing.FILE_STORAGE, billing.S3_BUCKET ? "bucket" : "none"]).toEqual(["s3", "bucket"]);
  });

  it("monitors every deployable through a ServiceMonitor on its metrics port", () => {
    const [monitor] = all<IServiceMonitor>("prod", "ServiceMonitor");
    for (const name of DEPLOYABLES) {
      const service = one<IService>("prod", "Service", name);
      expect(matchesSelector(monitor?.spec.selector, service.metadata?.labels ?? {}), name).toBe(true);
      expect(service.spec?.ports?.map((port) => port.name)).toContain(monitor?.spec.endpoints?.[0]?.port);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers of the tests above

function jobName(overlay: Overlay, service: string): string {
  const job = all<IJob>(overlay, "Job").find((candidate) => candidate.spec?.template.metadata?.labels?.["app.kubernetes.io/name"] === `migrate-${service}`);
  if (!job) throw new Error(`${overlay} has no migration Job for ${service}`);
  return job.metadata.name;
}

function connectionsSecret(overlay: Overlay): string {
  return all<ISecret>(overlay, "Secret").find((secret) => secret.metadata.name.startsWith("tollgate-connections"))?.metadata.name ?? "tollgate-connections";
}

function portOfStatefulSet(overlay: Overlay, name: string, port: string): number | undefined {
  return one<IStatefulSet>(overlay, "StatefulSet", name)
    .spec?.template.spec?.containers.flatMap((container) => container.ports ?? [])
    .find((candidate) => candidate.name === port)?.containerPort;
}

/** Whether a URL's host is a Service of the render (or one CloudNativePG makes for its Cluster). */
function inClusterHost(overlay: Overlay, url: string): boolean {
  const host = new URL(url).hostname.split(".")[0] ?? "";
  const clusters = rendered[overlay].filter((manifest) => manifest.kind === "Cluster").map((manifest) => `${manifest.metadata.name}-rw`);
  return [...all<IService>(overlay, "Service").map((service) => service.metadata.name), ...clusters].includes(host);
}

/** Whether a subject matches a NATS subject pattern (`*` one token, `>` one or more at the end). */
function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split(".");
  const tokens = subject.split(".");
  for (const [index, token] of wanted.entries()) {
    if (token === ">") return tokens.length > index;
    if (index >= tokens.length || (token !== "*" && token !== tokens[index])) return false;
  }
  return wanted.length === tokens.length;
}

type Labels = Record<string, string>;
type Selector = { matchLabels?: Labels; matchExpressions?: { key: string; operator: string; values?: string[] }[] };

function matchesLabels(wanted: Labels, labels: Labels): boolean {
  return Object.entries(wanted).every(([key, value]) => labels[key] === value);
}
function matchesSelector(selector: Selector | undefined, labels: Labels): boolean {
  if (!selector) return false;
  return (
    matchesLabels(selector.matchLabels ?? {}, labels) &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      if (operator === "In") return values.includes(labels[key] ?? "\u0000");
      if (operator === "NotIn") return !values.includes(labels[key] ?? "\u0000");
      if (operator === "Exists") return key in labels;
      return !(key in labels);
    })
  );
}

// ---------------------------------------------------------------------------------------------
// The traffic NetworkPolicies allow, as a graph of `from → to:port/protocol` edges

interface Port {
  port: number;
  name?: string;
  protocol: string;
}
/** A pod, in the namespace or outside it, or an address outside the cluster. */
interface Peer {
  name: string;
  namespaceLabels?: Labels;
  labels?: Labels;
  ip?: string;
  ports: Port[];
}

const NAMESPACE_LABELS: Labels = { "kubernetes.io/metadata.name": "tollgate" };
/** Ports tried on addresses outside the cluster: mail, web, a webhook on its own port, Postgres, the API server. */
const PROBE_PORTS = [25, 80, 443, 465, 587, 5432, 6443, 8443].map((port) => ({ port, protocol: "TCP" }));
/** Pods of other namespaces that some policy names, and one none does. */
const OUTSIDE_PODS: Peer[] = [
  { name: "ingress-controller", namespaceLabels: { "kubernetes.io/metadata.name": "ingress-nginx" }, labels: { "app.kubernetes.io/name": "ingress-nginx" }, ports: [] },
  { name: "monitoring", namespaceLabels: { "kubernetes.io/metadata.name": "monitoring" }, labels: { "app.kubernetes.io/name": "prometheus" }, ports: [] },
  { name: "keda", namespaceLabels: { "kubernetes.io/metadata.name": "keda" }, labels: { app: "keda-operator" }, ports: [] },
  { name: "cnpg-operator", namespaceLabels: { "kubernetes.io/metadata.name": "cnpg-system" }, labels: { "app.kubernetes.io/name": "cloudnative-pg" }, ports: [] },
  { name: "kube-dns", namespaceLabels: { "kubernetes.io/metadata.name": "kube-system" }, labels: { "k8s-app": "kube-dns" }, ports: [{ port: 53, protocol: "UDP" }, { port: 53, protocol: "TCP" }] },
  { name: "another-app", namespaceLabels: { "kubernetes.io/metadata.name": "default" }, labels: { app: "other" }, ports: [{ port: 8080, protocol: "TCP" }] },
];
/** Addresses outside the cluster: the internet, and what must never be reached (cluster, private and link-local ranges). */
const ADDRESSES: Peer[] = [
  ["internet", "203.0.113.10"],
  ["internet-v6", "2001:db8::10"],
  ["cluster-service", "10.96.0.10"],
  ["private-172", "172.20.0.5"],
  ["private-192", "192.168.1.10"],
  ["carrier-nat", "100.64.0.1"],
  ["cloud-metadata", "169.254.169.254"],
  ["unique-local-v6", "fd00::1"],
  ["link-local-v6", "fe80::1"],
].map(([name = "", ip = ""]) => ({ name, ip, ports: PROBE_PORTS }));

/** Pods of the namespace: each workload's, and CloudNativePG's instances as its operator labels them. */
function podsOf(overlay: Overlay): Peer[] {
  const pods = workloads(overlay).map(({ name, template }) => ({
    name: template.metadata?.labels?.["app.kubernetes.io/name"] ?? name,
    namespaceLabels: NAMESPACE_LABELS,
    labels: template.metadata?.labels ?? {},
    ports: containersOf(template).flatMap((container) => (container.ports ?? []).map((port) => ({ port: port.containerPort, name: port.name, protocol: port.protocol ?? "TCP" }))),
  }));
  const clusters = rendered[overlay]
    .filter((manifest) => manifest.kind === "Cluster")
    .map((manifest) => {
      const { spec } = z.object({ spec: z.object({ inheritedMetadata: z.object({ labels: z.record(z.string(), z.string()) }) }) }).parse(manifest);
      return {
        name: manifest.metadata.name,
        namespaceLabels: NAMESPACE_LABELS,
        labels: { ...spec.inheritedMetadata.labels, "cnpg.io/cluster": manifest.metadata.name, "cnpg.io/podRole": "instance" },
        ports: [
          { port: 5432, name: "postgresql", protocol: "TCP" },
          { port: 8000, name: "status", protocol: "TCP" },
          { port: 9187, name: "metrics", protocol: "TCP" },
        ],
      };
    });
  return [...pods, ...clusters];
}

/** Whether an address is in an ipBlock; a block of one family never holds an address of the other (node's BlockList would map IPv4 into IPv6). */
function inBlock(ip: string, block: { cidr: string; except?: string[] }): boolean {
  const type = isIPv6(ip) ? "ipv6" : "ipv4";
  const list = (cidrs: string[]) => {
    const blocks = new BlockList();
    for (const cidr of cidrs) {
      const [network = "", prefix = "0"] = cidr.split("/");
      if ((isIPv6(network) ? "ipv6" : "ipv4") === type) blocks.addSubnet(network, Number(prefix), type);
    }
    return blocks;
  };
  return list([block.cidr]).check(ip, type) && !list(block.except ?? []).check(ip, type);
}

/** Whether a rule's peer names `peer` (pods of this namespace by podSelector alone; others by their namespace). */
function peerMatches(rule: INetworkPolicyPeer, peer: Peer): boolean {
  if (rule.ipBlock) return peer.ip !== undefined && inBlock(peer.ip, rule.ipBlock);
  if (!peer.labels) return false;
  const namespaceOk = rule.namespaceSelector ? matchesSelector(rule.namespaceSelector, peer.namespaceLabels ?? {}) : peer.namespaceLabels === NAMESPACE_LABELS;
  return namespaceOk && (rule.podSelector ? matchesSelector(rule.podSelector, peer.labels) : true);
}
function portMatches(rules: INetworkPolicyPort[] | undefined, port: Port): boolean {
  if (!rules || rules.length === 0) return true;
  return rules.some((rule) => (rule.protocol ?? "TCP") === port.protocol && (rule.port === undefined || rule.port === port.port || rule.port === port.name));
}

function allowedTraffic(overlay: Overlay): string[] {
  const policies = all<INetworkPolicy>(overlay, "NetworkPolicy");
  const pods = podsOf(overlay);
  const applying = (pod: Peer, type: "Ingress" | "Egress") => policies.filter((policy) => policy.spec?.policyTypes?.includes(type) && matchesSelector(policy.spec.podSelector, pod.labels ?? {}));
  // A pod no policy of the type selects is not isolated for it; outside this namespace, none of these apply.
  const egressAllowed = (from: Peer, to: Peer, port: Port) => {
    const selecting = from.namespaceLabels === NAMESPACE_LABELS ? applying(from, "Egress") : [];
    return selecting.length === 0 || selecting.some((policy) => (policy.spec?.egress ?? []).some((rule) => (!rule.to || rule.to.some((peer) => peerMatches(peer, to))) && portMatches(rule.ports, port)));
  };
  const ingressAllowed = (from: Peer, to: Peer, port: Port) => {
    const selecting = to.namespaceLabels === NAMESPACE_LABELS ? applying(to, "Ingress") : [];
    return selecting.length === 0 || selecting.some((policy) => (policy.spec?.ingress ?? []).some((rule) => (!rule.from || rule.from.some((peer) => peerMatches(peer, from))) && portMatches(rule.ports, port)));
  };
  const edges = new Set<string>();
  for (const from of [...pods, ...OUTSIDE_PODS]) {
    for (const to of [...pods, ...OUTSIDE_PODS, ...ADDRESSES]) {
      if (from.namespaceLabels !== NAMESPACE_LABELS && to.namespaceLabels !== NAMESPACE_LABELS) continue;
      for (const port of to.ports) if (egressAllowed(from, to, port) && ingressAllowed(from, to, port)) edges.add(`${from.name} → ${to.name}:${port.port}/${port.protocol}`);
    }
  }
  return [...edges].sort();
}

/** The architecture's edges (ARCHITECTURE.md, "Shape"), and nothing else. */
function expectedTraffic(overlay: Overlay): string[] {
  const database = overlay === "dev" ? "postgres" : "tollgate-db";
  const apiPorts: Record<string, number> = { gateway: 3000, auth: 3001, organization: 3002, billing: 3003, "webhook-dispatcher": 3004 };
  const migrations = SERVICE_NAMES.map((name) => `migrate-${name}`);
  const internet = (from: string, ports: number[]) => ports.flatMap((port) => ["internet", "internet-v6"].map((to) => `${from} → ${to}:${port}/TCP`));
  const edges = [
    // The ingress controller reaches the gateway alone; the gateway proxies HTTP to each service.
    "ingress-controller → gateway:3000/TCP",
    ...SERVICE_NAMES.map((name) => `gateway → ${name}:${apiPorts[name]}/TCP`),
    // Every process uses the bus; the NATS servers talk among themselves.
    ...DEPLOYABLES.map((name) => `${name} → nats:4222/TCP`),
    "nats → nats:6222/TCP",
    // Redis: the gateway's cache and rate limits, billing's idempotency keys.
    "gateway → redis:6379/TCP",
    "billing → redis:6379/TCP",
    // Each service, and its migration Job, its own schema.
    ...[...SERVICE_NAMES, ...migrations].map((name) => `${name} → ${database}:5432/TCP`),
    // Prometheus scrapes each process's metrics port.
    ...DEPLOYABLES.map((name) => `monitoring → ${name}:9464/TCP`),
    // Every pod looks names up.
    ...podsOf(overlay).flatMap((pod) => [`${pod.name} → kube-dns:53/TCP`, `${pod.name} → kube-dns:53/UDP`]),
    // Out of the cluster: auth to mail servers and sign-in providers, the dispatcher to sellers' endpoints on any port.
    ...internet("auth", [443, 465, 587]),
    ...internet("webhook-dispatcher", PROBE_PORTS.map(({ port }) => port)),
  ];
  if (overlay === "prod") {
    edges.push(
      // CloudNativePG: replication between instances, the operator's status checks, its metrics,
      // and the instance manager's calls to the API server, wherever the cluster has it (never link-local).
      `${database} → ${database}:5432/TCP`,
      `${database} → ${database}:8000/TCP`,
      `cnpg-operator → ${database}:5432/TCP`,
      `cnpg-operator → ${database}:8000/TCP`,
      `monitoring → ${database}:9187/TCP`,
      ...ADDRESSES.filter((address) => !/^(cloud-metadata|link-local-v6)$/.test(address.name)).flatMap((address) => [443, 6443].map((port) => `${database} → ${address.name}:${port}/TCP`)),
      // KEDA reads the consumer's lag from NATS's monitoring port; billing keeps files in S3.
      "keda → nats:8222/TCP",
      ...internet("billing", [443]),
    );
  }
  return [...new Set(edges)].sort();
}
