-- A core-group kind (in this test only): no opinion unless it is gone.
if obj.metadata.annotations ~= nil and obj.metadata.annotations["example.com/gone"] == "true" then
  return {status = "Missing", message = "marked gone"}
end
return nil
