// The package door's native comparison in `npm run bench:small`: a do-nothing plugin in Go, on the
// provider server of Pulumi's Go SDK (github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider, the one
// Go providers start through), under this package's plugin name and serving its schema. It answers
// as bench/small/noop-plugin.ts does: check passes the inputs, diff reports a change of any user
// input, create returns the inputs as outputs with a made-up id, read the state, update the new
// inputs, delete nothing. It makes no request. bench/small/native-plugin.ts builds it at bench time,
// the schema embedded and the version set at link time, as a native plugin ships them.
package main

import (
	"context"
	"crypto/rand"
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

//go:embed schema.json
var schema string

// Set by the build (-ldflags "-X main.version=...").
var version = "0.0.0"

type noop struct {
	pulumirpc.UnimplementedResourceProviderServer
}

func (noop) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (noop) GetSchema(_ context.Context, req *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	if req.GetVersion() != 0 {
		return nil, fmt.Errorf("unsupported schema version %d", req.GetVersion())
	}
	return &pulumirpc.GetSchemaResponse{Schema: schema}, nil
}

// The same answer as the Node.js servers give: secrets, resources and outputs pass as they are.
func (noop) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, AcceptOutputs: true}, nil
}

func (noop) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

// changed: whether a user input (a key not starting with "__") differs, as the package's diff reports it.
func changed(olds, news *structpb.Struct) bool {
	o, n := olds.GetFields(), news.GetFields()
	for _, m := range []map[string]*structpb.Value{o, n} {
		for k := range m {
			if !strings.HasPrefix(k, "__") && !proto.Equal(o[k], n[k]) {
				return true
			}
		}
	}
	return false
}

func (noop) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	changes := pulumirpc.DiffResponse_DIFF_NONE
	if changed(req.GetOlds(), req.GetNews()) {
		changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return &pulumirpc.DiffResponse{Changes: changes}, nil
}

func (noop) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	return &pulumirpc.CreateResponse{Id: strings.ToLower(rand.Text()[:10]), Properties: req.GetProperties()}, nil
}

func (noop) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties()}, nil
}

func (noop) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	return &pulumirpc.UpdateResponse{Properties: req.GetNews()}, nil
}

func (noop) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (noop) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func main() {
	err := provider.Main("pagerduty-dynamic", func(*provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return noop{}, nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
