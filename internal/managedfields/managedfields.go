package managedfields

// SpecEntry returns e, an entry of metadata.managedFields, if it is one of the main resource
// (not a subresource such as status) whose fields include spec: its time is when that manager
// last changed the spec. ok is false for any other entry, or one that is not an object.
func SpecEntry(e any) (entry map[string]any, ok bool) {
	entry, _ = e.(map[string]any)
	if entry == nil {
		return nil, false
	}
	if sub, _ := entry["subresource"].(string); sub != "" {
		return nil, false
	}
	fields, _ := entry["fieldsV1"].(map[string]any)
	if _, owns := fields["f:spec"]; !owns {
		return nil, false
	}
	return entry, true
}
