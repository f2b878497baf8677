# syntax=docker/dockerfile:1
# The directory as a container: the snapshot is built into the image, and the runtime stage holds
# only production dependencies, the compiled server and dist/.
#   docker build --build-arg BASE_URL=https://directory.example -t hearthway-directory .
#   docker run -p 3000:3000 -e BASE_URL=https://directory.example hearthway-directory

ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/compile.mjs ./scripts/
COPY src ./src
COPY build ./build
COPY content ./content
# The public address is baked into the snapshot's pages and links; serve with the same BASE_URL.
ARG BASE_URL=http://localhost:3000
# server/.tsbuildinfo and server/.compiled are only tsc's incremental state and the compile's mark: the runtime stage needs neither.
# STATIC_PAGES=false: the server renders every profile, so the image holds no profile page files.
RUN npm run compile && rm -f server/.tsbuildinfo server/.compiled && STATIC_PAGES=false npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/server ./server
COPY --from=build /app/dist ./dist
ARG BASE_URL=http://localhost:3000
ENV BASE_URL=${BASE_URL}
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node runs as PID 1 and handles SIGTERM itself: it finishes in-flight requests and exits 0.
CMD ["node", "server/server.js"]
