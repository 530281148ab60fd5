// The Setup page: a CSV file chosen is read into the teams' box, as if pasted. It computes
// nothing: the gateway reads the box when the form is reviewed.
document.getElementById("csv-file")?.addEventListener("change", (event) => {
  const file = event.target.files?.[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { document.getElementById("csv").value = reader.result; };
  reader.readAsText(file);
});
