# The ukcd service and its commands (load, index, keys, ...). TypeScript runs through tsx at run
# time, and tsx is a production dependency, so there is no build step: the image holds the sources
# and the production dependencies only. compose.yaml runs it as the API and as the one-shot jobs.
FROM node:20-bookworm-slim

# HOST: in a container the service must answer on the container's interface, not only its loopback.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false

# Scanned accounts PDFs are read by OCR (docs/pdf-accounts.md): Debian's Tesseract with its English
# model, and poppler-utils (pdfinfo, pdfimages, pdftoppm) for the page images. The readers run them
# as child processes: `ukcd parse FILE.pdf`, `ukcd backfill pdf-accounts` and the service's worker.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng poppler-utils \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY loaders ./loaders
COPY index-mappings ./index-mappings

# DATA_DIR holds downloads and load reports (and the embedded store when DATABASE_URL is unset).
# Created here so that a named volume mounted on it starts out owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node

EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/ukcd.mjs", "start"]
