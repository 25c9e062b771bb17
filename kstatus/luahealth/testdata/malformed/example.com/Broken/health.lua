local hs = {}
if obj.status.phase == "Ready" then
  hs.status = "Healthy"
-- the "end" of this if is missing
return hs
