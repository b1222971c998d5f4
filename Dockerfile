# One image for every app and the migrate step; the command picks which one runs:
#   node dist/apps/<api|worker|public>/src/main.js
# `npm run build` compiles the TypeScript with SWC into dist/ (no compiler at run time).
FROM node:20-bookworm-slim

ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

WORKDIR /app
RUN chown node:node /app
USER node

# npm ci needs every workspace's package.json; its postinstall generates the Prisma client
# from prisma/schema.prisma. Copying everything is simplest; .dockerignore keeps it small.
COPY --chown=node:node . .
RUN npm ci && npm run build && npm cache clean --force

ENV NODE_ENV=production \
    API_HOST=0.0.0.0 \
    PUBLIC_HOST=0.0.0.0
EXPOSE 3000 8080

# Flags as in libs/config/src/app-processes.ts (APP_NODE_FLAGS).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=32", "dist/apps/api/src/main.js"]
