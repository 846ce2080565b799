# A minimal plain-HTTP API stub on 127.0.0.1 that saves every POST and DELETE
# body, used to capture what kubectl sends (see README.md).
# Usage: capture_stub.py PORT OUTDIR. Protobuf bodies are answered 415 (kubectl
# stops there), JSON bodies 201/200.
import http.server, json, os, sys, itertools
OUT = sys.argv[2]
MINOR = os.environ.get("MINOR", "32")
POD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pod-typical.json")
counter = itertools.count()
RES = {
 "/api/v1": {"kind":"APIResourceList","groupVersion":"v1","resources":[
   {"name":"namespaces","singularName":"namespace","namespaced":False,"kind":"Namespace","verbs":["create","get","list"],"shortNames":["ns"]},
   {"name":"pods","singularName":"pod","namespaced":True,"kind":"Pod","verbs":["create","get","list"],"shortNames":["po"]},
   {"name":"nodes","singularName":"node","namespaced":False,"kind":"Node","verbs":["create","get","list"],"shortNames":["no"]},
   {"name":"events","singularName":"event","namespaced":True,"kind":"Event","verbs":["create","get","list"],"shortNames":["ev"]}]},
 "/apis/apps/v1": {"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
   {"name":"deployments","singularName":"deployment","namespaced":True,"kind":"Deployment","verbs":["create","get","list"],"shortNames":["deploy"]},
   {"name":"replicasets","singularName":"replicaset","namespaced":True,"kind":"ReplicaSet","verbs":["create","get","list"],"shortNames":["rs"]}]},
 "/apis/coordination.k8s.io/v1": {"kind":"APIResourceList","groupVersion":"coordination.k8s.io/v1","resources":[
   {"name":"leases","singularName":"lease","namespaced":True,"kind":"Lease","verbs":["create","get","list"]}]},
}
class H(http.server.BaseHTTPRequestHandler):
    def _send(self, code, obj, ctype="application/json"):
        b = json.dumps(obj).encode()
        self.send_response(code); self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(b))); self.end_headers(); self.wfile.write(b)
    def do_GET(self):
        p = self.path.split("?")[0]
        if p == "/version": return self._send(200, {"major":"1","minor":MINOR,"gitVersion":"v1.%s.0"%MINOR})
        if p == "/api": return self._send(200, {"kind":"APIVersions","versions":["v1"]})
        if p == "/apis": return self._send(200, {"kind":"APIGroupList","apiVersion":"v1","groups":[
            {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
            {"name":"coordination.k8s.io","versions":[{"groupVersion":"coordination.k8s.io/v1","version":"v1"}],"preferredVersion":{"groupVersion":"coordination.k8s.io/v1","version":"v1"}}]})
        if p in RES: return self._send(200, RES[p])
        parts = p.strip("/").split("/")
        if p == "/api/v1/pods":
            pod = {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"default","uid":"p-1","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-x","uid":"rs-1","controller":True}]},"spec":{"nodeName":"n1","containers":[{"name":"a","image":"nginx"}]},"status":{"phase":"Running"}}
            return self._send(200, {"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[pod]})
        if len(parts) == 4 and parts[2] == "nodes":
            return self._send(200, {"kind":"Node","apiVersion":"v1","metadata":{"name":parts[3],"uid":"n-1","labels":{"kubernetes.io/hostname":parts[3]}},"spec":{},"status":{"nodeInfo":{"operatingSystem":"linux","architecture":"amd64"}}})
        if len(parts) == 6 and parts[4] == "pods":
            pod = json.load(open(POD))
            pod["metadata"]["name"] = parts[5]; pod["metadata"]["namespace"] = parts[3]
            return self._send(200, pod)
        return self._send(404, {"kind":"Status","apiVersion":"v1","status":"Failure","message":"not found","reason":"NotFound","code":404})
    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0")); body = self.rfile.read(n)
        ct = self.headers.get("Content-Type", "")
        i = next(counter)
        ext = "pb" if "protobuf" in ct else "json"
        with open(os.path.join(OUT, "%03d.%s" % (i, ext)), "wb") as f: f.write(body)
        with open(os.path.join(OUT, "%03d.meta" % i), "w") as f: f.write(self.path + "\n" + ct + "\n")
        if ext == "pb":
            return self._send(415, {"kind":"Status","apiVersion":"v1","status":"Failure","message":"captured","reason":"UnsupportedMediaType","code":415})
        obj = json.loads(body); obj.setdefault("metadata", {})["uid"] = "x"
        return self._send(201, obj)
    def do_PATCH(self):
        n = int(self.headers.get("Content-Length", "0")); self.rfile.read(n)
        parts = self.path.split("?")[0].strip("/").split("/")
        return self._send(200, {"kind":"Node","apiVersion":"v1","metadata":{"name":parts[-1]},"spec":{"unschedulable":True}})
    def do_DELETE(self):
        n = int(self.headers.get("Content-Length", "0")); body = self.rfile.read(n)
        ct = self.headers.get("Content-Type", "")
        i = next(counter)
        ext = "pb" if "protobuf" in ct else "json"
        with open(os.path.join(OUT, "%03d.%s" % (i, ext)), "wb") as f: f.write(body)
        with open(os.path.join(OUT, "%03d.meta" % i), "w") as f: f.write("DELETE " + self.path + "\n" + ct + "\n")
        if ext == "pb":
            return self._send(415, {"kind":"Status","apiVersion":"v1","status":"Failure","message":"captured","reason":"UnsupportedMediaType","code":415})
        return self._send(200, {"kind":"Status","apiVersion":"v1","status":"Success"})
    def log_message(self, *a): pass
if __name__ == "__main__":
    http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
