const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t = cpu();
for (const m of process.argv.slice(2)) { const a = cpu(); await import(m); console.log(m, (cpu() - a).toFixed(0), "ms"); }
console.log("total", (cpu() - t).toFixed(0), "ms");
