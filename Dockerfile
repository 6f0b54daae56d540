# Quire: build stage compiles TypeScript to dist/ (npm ci runs `prepare`), then drops dev dependencies.
FROM node:22-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships prebuilt binaries for these platforms; the toolchain is there for the others.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
COPY web ./web
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/bin ./bin
COPY LICENSE README.md CHANGELOG.md ./
# The code belongs to root and is read-only for the server; only /data is the server's to write.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm): SIGTERM reaches the server, which drains and exits.
CMD ["node", "bin/quire.js", "serve"]
