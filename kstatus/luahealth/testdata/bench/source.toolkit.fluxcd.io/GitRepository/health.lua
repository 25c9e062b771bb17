-- A check written the way Flux users write one for Argo CD: suspended first, then the
-- Stalled, Reconciling and Ready conditions. BenchmarkLuaHealth runs it.
if obj.spec ~= nil and obj.spec.suspend == true then
  return {status = "Suspended", message = obj.kind .. " is suspended"}
end
if obj.status == nil or obj.status.conditions == nil then
  return {status = "Progressing", message = "No status reported yet"}
end
if obj.status.observedGeneration ~= nil and obj.status.observedGeneration ~= obj.metadata.generation then
  return {status = "Progressing", message = "Generation not observed yet"}
end
local ready
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Stalled" and c.status == "True" then
    return {status = "Degraded", message = c.reason .. ": " .. (c.message or "")}
  elseif c.type == "Reconciling" and c.status == "True" then
    return {status = "Progressing", message = c.message}
  elseif c.type == "Ready" then
    ready = c
  end
end
if ready == nil then
  return {status = "Progressing", message = "No Ready condition yet"}
elseif ready.status == "True" then
  return {status = "Healthy", message = ready.message}
elseif ready.status == "False" then
  return {status = "Degraded", message = ready.reason .. ": " .. (ready.message or "")}
end
return {status = "Progressing", message = ready.message}
