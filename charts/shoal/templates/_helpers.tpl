{{/* Name of everything this release makes. */}}
{{- define "shoal.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels on every object. */}}
{{- define "shoal.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component: include with (list . "node"). */}}
{{- define "shoal.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ $root.Chart.Name }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* The node pods' selector as a label-selector string, for the controller. */}}
{{- define "shoal.nodeSelectorString" -}}
{{- printf "app.kubernetes.io/name=%s,app.kubernetes.io/instance=%s,app.kubernetes.io/component=node" .Chart.Name .Release.Name -}}
{{- end -}}

{{/* An image reference: include with (list . "shoal-node"). */}}
{{- define "shoal.image" -}}
{{- $root := index . 0 -}}
{{- printf "%s/%s:%s" $root.Values.image.registry (index . 1) (default $root.Chart.AppVersion $root.Values.image.tag) -}}
{{- end -}}

{{/* host:port of the in-cluster registry. */}}
{{- define "shoal.internalRegistryHost" -}}
{{- printf "%s-registry.%s.svc.cluster.local:%v" (include "shoal.fullname" .) .Release.Namespace .Values.registry.internal.port -}}
{{- end -}}

{{/* The in-cluster registry's own port, on its pod's loopback, behind the gate. */}}
{{- define "shoal.registryUpstreamPort" -}}5001{{- end -}}

{{/* The Secret with the registry gate's node password and token key. */}}
{{- define "shoal.registryAuthSecret" -}}{{ include "shoal.fullname" . }}-registry-auth{{- end -}}

{{/* Where modules are pushed: registry host and repository prefix. */}}
{{- define "shoal.registry" -}}
{{- if .Values.registry.internal.enabled -}}
{{- printf "%s/functions" (include "shoal.internalRegistryHost" .) -}}
{{- else -}}
{{- required "registry.external.address is required when registry.internal.enabled is false" .Values.registry.external.address -}}
{{- end -}}
{{- end -}}

{{/* Registries reached over plain HTTP. */}}
{{- define "shoal.insecureRegistries" -}}
{{- if .Values.registry.internal.enabled -}}
{{- include "shoal.internalRegistryHost" . -}}
{{- else if .Values.registry.external.insecure -}}
{{- regexReplaceAll "/.*$" .Values.registry.external.address "" -}}
{{- end -}}
{{- end -}}

{{/* The Secret with registry credentials, or empty for none. */}}
{{- define "shoal.registrySecret" -}}
{{- if and (not .Values.registry.internal.enabled) .Values.registry.external.existingSecret -}}
{{- .Values.registry.external.existingSecret -}}
{{- else if and (not .Values.registry.internal.enabled) .Values.registry.external.username -}}
{{- printf "%s-registry-credentials" (include "shoal.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "shoal.webhookService" -}}{{ include "shoal.fullname" . }}-webhook{{- end -}}
{{- define "shoal.mutatingWebhook" -}}{{ include "shoal.fullname" . }}-function-defaulting{{- end -}}
{{- define "shoal.validatingWebhook" -}}{{ include "shoal.fullname" . }}-function-validation{{- end -}}

{{/* Container security settings shared by every Shoal container. */}}
{{- define "shoal.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{- define "shoal.podSecurity" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Per-namespace egress policies as the node's SHOAL_EGRESS_NAMESPACES:
NAMESPACE=allow:P|P;deny:P, comma-separated. */}}
{{- define "shoal.egressNamespaces" -}}
{{- $entries := list -}}
{{- range $namespace, $policy := . -}}
{{- $rules := list -}}
{{- with $policy.allow }}{{ $rules = append $rules (printf "allow:%s" (join "|" .)) }}{{ end -}}
{{- with $policy.deny }}{{ $rules = append $rules (printf "deny:%s" (join "|" .)) }}{{ end -}}
{{- $entries = append $entries (printf "%s=%s" $namespace (join ";" $rules)) -}}
{{- end -}}
{{- join "," $entries -}}
{{- end -}}

{{/* The NATS URL eventing uses: the operator's, or the chart's own server. */}}
{{- define "shoal.natsURL" -}}
{{- if .Values.eventing.nats.url -}}
{{ .Values.eventing.nats.url }}
{{- else -}}
nats://{{ include "shoal.fullname" . }}-nats.{{ .Release.Namespace }}.svc:4222
{{- end -}}
{{- end }}

{{/* Where Functions' emitCloudEvent posts: Shoal's publisher when its eventing is on. */}}
{{- define "shoal.publisherProxy" -}}
{{- if and .Values.eventing.enabled (eq .Values.functions.publisherProxy "http://eventing-publisher-proxy.kyma-system.svc.cluster.local/publish") -}}
http://{{ include "shoal.fullname" . }}-publisher.{{ .Release.Namespace }}.svc.cluster.local/publish
{{- else -}}
{{ .Values.functions.publisherProxy }}
{{- end -}}
{{- end }}
