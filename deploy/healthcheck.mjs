// The image's HEALTHCHECK: 0 when the role in this container is ready (management listener).
const port = process.env.MANAGEMENT_PORT || '9000';
fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2500) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
