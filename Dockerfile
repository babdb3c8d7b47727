# Titlecard: one stateless API process. Records and files live in MongoDB and S3 when MONGODB_URI
# and S3_BUCKET are set (see docker-compose.yml), otherwise under DATA_DIR (/data).
FROM node:24-bookworm-slim AS build
# better-sqlite3 is a native addon: node-gyp needs a compiler and Python.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY fonts ./fonts
COPY models ./models
# `npm ci` runs the `prepare` script, which builds dist/; then drop the dev dependencies.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# Two malloc arenas instead of glibc's eight per core: a long-running server holds about 100 MiB
# less, and stops growing (README, Configuration).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/fonts ./fonts
COPY --from=build /app/models ./models
# The dashboard's templates and static files are read from src/web at run time.
COPY --from=build /app/src/web/views ./src/web/views
COPY --from=build /app/src/web/static ./src/web/static
COPY --from=build /app/src/mcp/app ./src/mcp/app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/cli.js", "serve"]
