// pulumi-sdkgen: generates a Pulumi package's SDK from its schema with the code generators of
// github.com/pulumi/pulumi/pkg/v3 (codegen/python, codegen/go, codegen/nodejs). The CLI's own
// `pulumi package add` / `gen-sdk` ask the program's language host for GeneratePackage, which the
// hosts the module proxy lets us build do not have (docs/building-pulumi.md); this calls the same
// generators directly. Built by scripts/setup-language-hosts.sh into the cache, never committed.
//
// Usage: pulumi-sdkgen [--local] <schema.json> <python|go|nodejs> <out dir>
//
// --local generates an SDK for use from a directory, as `pulumi package gen-sdk --local` and `pulumi
// package add` do: the Node.js one then compiles itself when npm installs it (a postinstall script
// running tsc), where the published form is built and packed first.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

const tool = "pulumi-sdkgen"

func main() {
	args := os.Args[1:]
	local := len(args) > 0 && args[0] == "--local"
	if local {
		args = args[1:]
	}
	if len(args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pulumi-sdkgen [--local] <schema.json> <python|go|nodejs> <out dir>")
		os.Exit(2)
	}
	if err := run(args[0], args[1], args[2], local); err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-sdkgen:", err)
		os.Exit(1)
	}
}

func run(schemaPath, language, out string, local bool) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	var files map[string][]byte
	switch language {
	case "python":
		files, err = python.GeneratePackage(tool, pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage(tool, pkg, nil)
	case "nodejs":
		files, err = nodejs.GeneratePackage(tool, pkg, nil, nil, local, noPackages{})
	default:
		return fmt.Errorf("unknown language %q (python, go or nodejs)", language)
	}
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noPackages loads no package: the schema references none but Pulumi's own (built in).
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %q, which pulumi-sdkgen cannot load", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
