-- Widgets report a phase; Paused waits for a person to set spec.paused back to false.
local hs = {}
if obj.status == nil or obj.status.phase == nil then
  hs.status = "Progressing"
  hs.message = "No phase reported yet"
  return hs
end
local phase = obj.status.phase
if phase == "Ready" then
  hs.status = "Healthy"
elseif phase == "Failed" then
  hs.status = "Degraded"
elseif phase == "Paused" then
  hs.status = "Suspended"
else
  hs.status = "Progressing"
end
hs.message = phase .. ": " .. (obj.status.message or "no message")
return hs
