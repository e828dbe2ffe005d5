# One image for every role of Gatehouse; the command picks it:
#   identity | admin | worker | migrate | start   (see deploy/README.md)
# Node 24 LTS: the production runtime (Node 20 reached its end of life in April 2026).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .swcrc ./
RUN npm ci --no-audit --no-fund
COPY apps ./apps
COPY libs ./libs
COPY migrations ./migrations
RUN npx swc apps libs migrations -d dist --quiet --copy-files --ignore '**/*.spec.ts' \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    ADMIN_PORT=3001 \
    MANAGEMENT_PORT=9000 \
    DATA_DIR=/var/lib/gatehouse
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs
RUN mkdir -p /var/lib/gatehouse && chown node:node /var/lib/gatehouse
USER node
EXPOSE 3000 3001 9000
# Readiness of whatever role runs, from the management listener (every role has one).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
STOPSIGNAL SIGTERM
# The young generation set, not left to Node 24's default, which grows with the machine's memory:
# semi-spaces of 32 MB on a 24 GB host put an identity replica at 330 MB RSS where 16 MB (Node 20's
# default there) keeps it at 244 MB, for about 2 % more CPU per token (BENCHMARKS.md). The bench
# starts Gatehouse with the flags of this line, and `npm start` and `npm run cli` pass the same.
ENTRYPOINT ["node", "--max-semi-space-size=16", "dist/apps/cli/src/main.js"]
CMD ["start"]
