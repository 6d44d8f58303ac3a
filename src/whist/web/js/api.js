// The HTTP API (docs/protocol.md): JSON in, JSON out, errors as {code, message}.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    let detail = data && data.detail !== undefined ? data.detail : data;
    if (Array.isArray(detail)) {
      // FastAPI's validation error list
      throw new ApiError(response.status, "invalid", detail.map((d) => d.msg).join("; "));
    }
    const code = (detail && detail.code) || `http_${response.status}`;
    throw new ApiError(response.status, code, detail && detail.message);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
export const put = (path, body = {}) => api("PUT", path, body);
